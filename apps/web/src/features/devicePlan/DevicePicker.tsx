import type { DeviceRow } from '@marquee/protocol';
import { formatTime } from '@marquee/protocol';
import { useQuery } from '@tanstack/react-query';
import { Descriptions, Select, Tag } from 'antd';
import { useDeferredValue, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { call } from '../../api/client';

const STATUS_COLOR: Record<DeviceRow['status'], string> = {
  online: 'success',
  offline: 'default',
  invalid: 'error',
  activating: 'processing',
  trial: 'warning',
};

/** The device a page is about, kept in the URL (`?device=<id>`) so the view can be shared and reloaded. */
export function useDeviceParam(): [string | undefined, (id: string | undefined) => void] {
  const [params, setParams] = useSearchParams();
  const id = params.get('device') || undefined;
  const set = (next: string | undefined) =>
    setParams(
      (prev) => {
        const out = new URLSearchParams(prev);
        if (next) out.set('device', next);
        else out.delete('device');
        return out;
      },
      { replace: true },
    );
  return [id, set];
}

/**
 * Picks one device the caller can see (searched by name or number on the server) and shows
 * what the registry knows of it.
 */
export function DevicePicker({ value, onChange }: { value?: string; onChange: (id: string | undefined) => void }) {
  const { t } = useTranslation('devicePlan');
  const [keyword, setKeyword] = useState('');
  const search = useDeferredValue(keyword);
  const devices = useQuery({
    queryKey: ['devices', 'picker', search],
    queryFn: ({ signal }) => call('deviceList', { page: 1, size: 50, keyword: search || undefined }, { signal }),
  });
  const [chosen, setChosen] = useState<DeviceRow | null>(null);
  const rows = devices.data?.data ?? [];
  const selected = rows.find((d) => d.id === value) ?? (chosen?.id === value ? chosen : null);
  const options = rows.map((d) => ({ value: d.id, label: d.number ? `${d.name} (${d.number})` : d.name }));
  if (selected && !options.some((o) => o.value === selected.id)) {
    options.unshift({ value: selected.id, label: selected.name });
  }
  return (
    <div className="mq-device-picker">
      <label htmlFor="mq-device-picker" className="mq-device-picker-label">
        {t('picker.label')}
      </label>
      <Select
        id="mq-device-picker"
        showSearch
        allowClear
        filterOption={false}
        onSearch={setKeyword}
        value={value}
        onChange={(id: string | undefined) => {
          setChosen(rows.find((d) => d.id === id) ?? null);
          setKeyword('');
          onChange(id);
        }}
        options={options}
        loading={devices.isFetching}
        placeholder={t('picker.placeholder')}
        notFoundContent={devices.isFetching ? null : t('picker.none')}
        style={{ width: 360, maxWidth: '100%' }}
        data-testid="device-picker"
      />
      {selected ? (
        <Descriptions
          size="small"
          column={{ xs: 1, sm: 2, lg: 3 }}
          style={{ marginTop: 12 }}
          data-testid="device-summary"
        >
          <Descriptions.Item label={t('device.number')}>{selected.number ?? '-'}</Descriptions.Item>
          <Descriptions.Item label={t('device.status')}>
            <Tag color={STATUS_COLOR[selected.status]}>{t(`status.${selected.status}`)}</Tag>
          </Descriptions.Item>
          <Descriptions.Item label={t('device.dept')}>{selected.deptName || '-'}</Descriptions.Item>
          <Descriptions.Item label={t('device.version')}>{selected.playerVersion ?? '-'}</Descriptions.Item>
          <Descriptions.Item label={t('device.lastSeen')}>
            {selected.lastSeenAt ? formatTime(selected.lastSeenAt) : '-'}
          </Descriptions.Item>
        </Descriptions>
      ) : null}
    </div>
  );
}
