/**
 * The device list's Excel export and import, as self-contained toolbar pieces for the
 * /device page (which mounts them): DeviceExportButton, DeviceImportButton (and the
 * DeviceImportDialog it opens).
 */
export { DeviceExportButton, type DeviceExportFilter } from './DeviceExportButton';
export { DeviceImportButton, DeviceImportDialog, type DeviceImportDialogProps } from './DeviceImportDialog';
