export { postUpload, readUploadAnswer, uploadForm } from './post';
export * from './queue';
export { fileProblem, StorageRefused, uploadSigned } from './signed';
export { UploadQueue } from './UploadQueue';
export { type UploadQueueApi, type UploadQueueOptions, useUploadQueue } from './useUploadQueue';
