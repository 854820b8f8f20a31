import { type AdInfo, endpoints } from '@marquee/protocol';
import { Form, Select } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useCallQuery } from '../../api/queries';
import { DeptPicker } from '../../components/pickers/DeptPicker';
import { useCan } from '../../session/useCan';
import { GroupSelect, TagSelect } from '../deviceGroups/pickers';

type Known = AdInfo['targetNames'];

/**
 * The list endpoint each searched kind of target is picked from. Devices come from the ad
 * form's own call (ad.targetDevices, the ad edit permission): an advertiser without the device
 * pages still picks among the screens shared with it.
 */
const SEARCHED = { deviceIds: 'adTargetDevices', spliceIds: 'spliceList' } as const;

/**
 * A kind of target picked from its list endpoint's first 100 rows matching the typed keyword
 * (shown when the caller may call it); the edited ad's own targets keep their names when they
 * are not among those rows.
 */
function SearchedField({ name, known, testId }: { name: keyof typeof SEARCHED; known: Known; testId: string }) {
  const can = useCan();
  const endpoint = SEARCHED[name];
  const allowed = can(endpoints[endpoint].permission);
  const { t } = useTranslation('ads');
  const [keyword, setKeyword] = useState('');
  const rows = useCallQuery(endpoint, { page: 1, size: 100, keyword: keyword || undefined }, { enabled: allowed });
  if (!allowed) return null;
  return (
    <Form.Item name={name} label={t(`ad.target.${name}`)}>
      <Select
        mode="multiple"
        showSearch={{ filterOption: false, onSearch: setKeyword }}
        loading={rows.isFetching}
        options={[
          ...(rows.data?.data ?? []).map((d) => ({ value: d.id, label: d.name })),
          ...known
            .filter((k) => k.kind === name && !rows.data?.data.some((d) => d.id === k.id))
            .map((k) => ({ value: k.id, label: k.name })),
        ]}
        data-testid={testId}
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
      <SearchedField name="deviceIds" known={known} testId="ad-edit-devices" />
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
      <SearchedField name="spliceIds" known={known} testId="ad-edit-splices" />
    </>
  );
}
