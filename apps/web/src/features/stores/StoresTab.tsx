import { Perm } from '@marquee/protocol';
import { useCan } from '../../session/useCan';
import { DeviceRegionMap } from '../deviceMap';
import { StoresPanel } from './StoresPanel';

/**
 * The Stores tab of /user/company: the store list, and below it the device map by region
 * (for those who may see devices) until the device list page mounts the map as its own view.
 */
export default function StoresTab() {
  const can = useCan();
  return (
    <div className="mq-stores-tab">
      <StoresPanel />
      {can(Perm.device) ? (
        <div style={{ marginTop: 16 }}>
          <DeviceRegionMap />
        </div>
      ) : null}
    </div>
  );
}
