import { type AdInfo, endpoints } from '@marquee/protocol';
import { useQuery } from '@tanstack/react-query';
import { Form, Select } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../../api/client';
import { useCan } from '../../session/useCan';
import { DeptPicker } from '../company/AccountFields';
import { GroupSelect, TagSelect } from '../deviceGroups/pickers';

type Load = (keyword: string | undefined, signal: AbortSignal) => Promise<{ data: { id: string; name: string }[] }>;

type Known = AdInfo['targetNames'];

/**
 * A kind of target picked from a list endpoint's first 100 rows matching the typed keyword;
 * the edited ad's own targets keep their names when they are not among those rows.
 */
function SearchedField({
  name,
  load,
  known,
  testId,
}: {
  name: 'deviceIds' | 'spliceIds';
  load: Load;
  known: Known;
  testId: string;
}) {
  const { t } = useTranslation('ads');
  const [keyword, setKeyword] = useState('');
  const rows = useQuery({
    queryKey: ['ads', 'targetOptions', name, keyword],
    queryFn: ({ signal }) => load(keyword || undefined, signal),
  });
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
      {can(endpoints.deviceList.permission) ? (
        <SearchedField
          name="deviceIds"
          load={(keyword, signal) => call('deviceList', { page: 1, size: 100, keyword }, { signal })}
          known={known}
          testId="ad-edit-devices"
        />
      ) : null}
      {can(endpoints.deviceGroupOptions.permission) ? (
        <Form.Item name="groupIds" label={label('groupIds')}>
          <GroupSelect testId="ad-edit-groups" />
        </Form.Item>
      ) : null}
      {can(endpoints.deviceTagOptions.permission) ? (
        <Form.Item name="tagIds" label={label('tagIds')}>
          <TagSelect testId="ad-edit-tags" />
        </Form.Item>
      ) : null}
      {can(endpoints.deptTree.permission) ? (
        <Form.Item name="deptIds" label={label('deptIds')} extra={t('edit.deptTargetHint')}>
          <DeptPicker multiple testId="ad-edit-depts" />
        </Form.Item>
      ) : null}
      {can(endpoints.spliceList.permission) ? (
        <SearchedField
          name="spliceIds"
          load={(keyword, signal) => call('spliceList', { page: 1, size: 100, keyword }, { signal })}
          known={known}
          testId="ad-edit-splices"
        />
      ) : null}
    </>
  );
}
