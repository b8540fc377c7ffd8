export * from './seal';
export * from './key-vault';
export * from './aws-kms-key-vault';
