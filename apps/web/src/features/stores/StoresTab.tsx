import { StoresPanel } from './StoresPanel';

/** The Stores tab of /user/company: the store list (the device map is a view of /device). */
export default function StoresTab() {
  return (
    <div className="mq-stores-tab">
      <StoresPanel />
    </div>
  );
}
