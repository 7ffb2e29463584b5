export * from './nats-config';
export * from './rpc-client';
export * from './event-bus';
export * from './rpc-problem.filter';
export * from './service-bootstrap';
export * from './messaging.module';
export * from './in-flight';
export * from './rpc-logging.interceptor';
