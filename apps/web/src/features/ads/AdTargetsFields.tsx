import { endpoints, Perm } from '@marquee/protocol';
import { useQuery } from '@tanstack/react-query';
import { Form, Select } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../../api/client';
import { useCan } from '../../session/useCan';
import { DeptPicker } from '../company/AccountFields';
import { GroupSelect, TagSelect } from '../deviceGroups/pickers';

/** The first 100 rows of a list endpoint matching a typed keyword, as options of a searching select. */
function SearchSelect({
  kind,
  load,
  enabled,
  testId,
  ...rest
}: {
  kind: string;
  load: (keyword: string | undefined, signal: AbortSignal) => Promise<{ data: { id: string; name: string }[] }>;
  enabled: boolean;
  testId: string;
  value?: string[];
  onChange?: (value: string[]) => void;
}) {
  const [keyword, setKeyword] = useState('');
  const rows = useQuery({
    queryKey: [kind, 'adOptions', keyword],
    queryFn: ({ signal }) => load(keyword || undefined, signal),
    enabled,
  });
  return (
    <Select
      mode="multiple"
      showSearch={{ filterOption: false, onSearch: setKeyword }}
      loading={rows.isFetching}
      options={(rows.data?.data ?? []).map((d) => ({ value: d.id, label: d.name }))}
      data-testid={testId}
      {...rest}
    />
  );
}

/**
 * Where an ad goes (/advert/edit): devices, device groups, tags, departments (and those
 * below) and split screens. Each picker shows when the caller may load its options; the
 * server checks every id against the caller's enterprise and data scope.
 */
export function AdTargetsFields() {
  const { t } = useTranslation('ads');
  const can = useCan();
  const label = (k: string) => t(`ad.target.${k}`);
  return (
    <>
      {can(Perm.device) ? (
        <Form.Item name="deviceIds" label={label('deviceIds')}>
          <SearchSelect
            kind="devices"
            enabled
            load={(keyword, signal) => call('deviceList', { page: 1, size: 100, keyword }, { signal })}
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
        <Form.Item name="spliceIds" label={label('spliceIds')}>
          <SearchSelect
            kind="splice"
            enabled
            load={(keyword, signal) => call('spliceList', { page: 1, size: 100, keyword }, { signal })}
            testId="ad-edit-splices"
          />
        </Form.Item>
      ) : null}
    </>
  );
}
