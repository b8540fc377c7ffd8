export * from './file-storage';
export * from './local-file-storage';
export * from './s3-file-storage';
export * from './storage-config';
export * from './byte-inspector';
export * from './upload-pipeline';
export * from './file-placements';
