export * from './command';
export * from './operation.decorator';
export * from './operation-dispatcher';
export * from './acting-context';
export * from './handler-coverage';
export * from './audit-trail';
export * from './recorded-writes';
export * from './resource-handler';
