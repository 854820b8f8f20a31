/**
 * The device map by province, city and district and the device-location dialog, without a
 * route of their own: the device list page mounts them (a map view; a "location" row action).
 */
export { DeviceLocationDialog } from './DeviceLocationDialog';
export { DeviceRegionMap } from './DeviceRegionMap';
