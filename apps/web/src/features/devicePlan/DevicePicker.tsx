import type { DeviceRow } from '@marquee/protocol';
import { formatTime } from '@marquee/protocol';
import { Descriptions } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { DeviceSelect } from '../../components/pickers/DevicePicker';
import { DeviceStatusTag } from '../devices/deviceColumns';

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
 * Picks one device the caller can see (the shared device picker) and shows what the registry
 * knows of it.
 */
export function DevicePicker({ value, onChange }: { value?: string; onChange: (id: string | undefined) => void }) {
  const { t } = useTranslation(['devicePlan', 'devices']);
  const [chosen, setChosen] = useState<DeviceRow | null>(null);
  const selected = chosen?.id === value ? chosen : null;
  return (
    <div className="mq-device-picker">
      <label htmlFor="mq-device-picker" className="mq-device-picker-label">
        {t('picker.label')}
      </label>
      <DeviceSelect
        id="mq-device-picker"
        allowClear
        value={value}
        onChange={(id, device) => {
          setChosen(device ?? null);
          onChange(id);
        }}
        onFound={(rows) => {
          if (value && chosen?.id !== value) setChosen(rows.find((d) => d.id === value) ?? null);
        }}
        placeholder={t('picker.placeholder')}
        notFound={t('picker.none')}
        style={{ width: 360, maxWidth: '100%' }}
        testId="device-picker"
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
            <DeviceStatusTag status={selected.status} t={t} />
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
