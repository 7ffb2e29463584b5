export * from './permissions';
export * from './access';
export * from './grants';
export * from './permission.guard';
