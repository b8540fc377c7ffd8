export * from './cloud-event';
export * from './event-kinds';
export * from './asyncapi';
export * from './transport';
export * from './amqp-transport';
export * from './in-process-bus';
export * from './outbox';
export * from './relay';
