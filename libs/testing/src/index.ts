export * from './api-client';
export * from './rate-limit-windows';
