export { postUpload, readUploadAnswer, uploadForm } from './post';
export * from './queue';
export { UploadQueue } from './UploadQueue';
export { type UploadQueueApi, type UploadQueueOptions, useUploadQueue } from './useUploadQueue';
