export * from './infrastructure';
export * from './databases';
export * from './broker';
export * from './tokens';
export * from './service-env';
export * from './processes';
export * from './tcp-proxy';
