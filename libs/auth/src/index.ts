export * from './permissions';
export * from './permission-catalog';
export * from './access';
export * from './grants';
export * from './permission.guard';
export * from './require-principal';
export * from './roles';
