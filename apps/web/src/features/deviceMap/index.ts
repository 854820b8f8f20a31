/**
 * The device map by province, city and district, without a route of its own: the device
 * list page mounts it as a view (issue 9). Also mounted in the Stores tab of /user/company.
 */
export { DeviceRegionMap } from './DeviceRegionMap';
