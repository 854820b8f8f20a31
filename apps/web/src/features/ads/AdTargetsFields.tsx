import { type AdInfo, endpoints } from '@marquee/protocol';
import { Form, Select } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useCallQuery } from '../../api/queries';
import { DeptPicker } from '../../components/pickers/DeptPicker';
import { DeviceSelect } from '../../components/pickers/DevicePicker';
import { useCan } from '../../session/useCan';
import { GroupSelect, TagSelect } from '../deviceGroups/pickers';

type Known = AdInfo['targetNames'];

/**
 * The split screens, picked from the first 100 matching the typed keyword (shown when the
 * caller may list them); the edited ad's own keep their names when they are not among those.
 */
function SpliceField({ known }: { known: Known }) {
  const can = useCan();
  const allowed = can(endpoints.spliceList.permission);
  const { t } = useTranslation('ads');
  const [keyword, setKeyword] = useState('');
  const rows = useCallQuery('spliceList', { page: 1, size: 100, keyword: keyword || undefined }, { enabled: allowed });
  if (!allowed) return null;
  return (
    <Form.Item name="spliceIds" label={t('ad.target.spliceIds')}>
      <Select
        mode="multiple"
        showSearch={{ filterOption: false, onSearch: setKeyword }}
        loading={rows.isFetching}
        options={[
          ...(rows.data?.data ?? []).map((d) => ({ value: d.id, label: d.name })),
          ...known
            .filter((k) => k.kind === 'spliceIds' && !rows.data?.data.some((d) => d.id === k.id))
            .map((k) => ({ value: k.id, label: k.name })),
        ]}
        data-testid="ad-edit-splices"
      />
    </Form.Item>
  );
}

/**
 * Where an ad goes (/advert/edit): devices, device groups, tags, departments (and those
 * below) and split screens. Each picker shows when the caller may load its options; the
 * server checks every id against the caller's enterprise and data scope.
 */
export function AdTargetsFields({ known = [] }: { known?: Known }) {
  const { t } = useTranslation('ads');
  const can = useCan();
  const label = (k: string) => t(`ad.target.${k}`);
  return (
    <>
      {/* Devices from the ad form's own list (ad.targetDevices, the ad edit permission): an
          advertiser without the device pages still picks among the screens shared with it. */}
      {can(endpoints.adTargetDevices.permission) ? (
        <Form.Item name="deviceIds" label={label('deviceIds')}>
          <DeviceSelect
            mode="multiple"
            source="adTargetDevices"
            limit={100}
            known={known.filter((k) => k.kind === 'deviceIds')}
            testId="ad-edit-devices"
          />
        </Form.Item>
      ) : null}
      {can(endpoints.deviceGroupOptions.permission) ? (
        <Form.Item name="groupIds" label={label('groupIds')}>
          <GroupSelect testId="ad-edit-groups" />
        </Form.Item>
      ) : null}
      {can(endpoints.deviceTagOptions.permission) ? (
        <Form.Item name="tagIds" label={label('tagIds')} extra={t('edit.tagTargetHint')}>
          <TagSelect testId="ad-edit-tags" />
        </Form.Item>
      ) : null}
      {can(endpoints.deptTree.permission) ? (
        <Form.Item name="deptIds" label={label('deptIds')} extra={t('edit.deptTargetHint')}>
          <DeptPicker multiple testId="ad-edit-depts" />
        </Form.Item>
      ) : null}
      <SpliceField known={known} />
    </>
  );
}
