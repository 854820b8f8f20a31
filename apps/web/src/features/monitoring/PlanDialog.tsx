import { MONITOR_PHOTOS_MAX, Perm } from '@marquee/protocol';
import { DatePicker, Form, Input, InputNumber, Select } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../../api/client';
import { useCallQuery } from '../../api/queries';
import { FormDialog } from '../../components/FormDialog';
import { DeviceSelect } from '../../components/pickers/DevicePicker';
import { maxLengthRule, requiredRule } from '../../components/zodRule';
import { useCan } from '../../session/useCan';

interface Values {
  name: string;
  monitorAccountId: string | undefined;
  adIds: string[];
  deviceIds: string[];
  period: [Dayjs, Dayjs] | null;
  photosRequired: number | null;
}

/** How long the ad search waits for the typing to pause (ms). */
const SEARCH_PAUSE = 250;

/** Picks ads the caller sees (ad.list's name search, on the server); chosen ones keep their names. */
function AdSelect({
  value,
  onChange,
  enabled,
}: {
  value?: string[];
  onChange?: (ids: string[]) => void;
  enabled: boolean;
}) {
  const { t } = useTranslation('monitoring');
  const [search, setSearch] = useState('');
  const [name, setName] = useState('');
  const [seen] = useState(() => new Map<string, string>());
  useEffect(() => {
    const next = search.trim();
    const timer = setTimeout(() => setName(next), next ? SEARCH_PAUSE : 0);
    return () => clearTimeout(timer);
  }, [search]);
  const ads = useCallQuery('adList', { page: 1, size: 50, name: name || undefined }, { enabled, keepPrevious: true });
  for (const a of ads.data?.data ?? []) seen.set(a.id, a.name);
  const options = (ads.data?.data ?? []).map((a) => ({ value: a.id, label: a.name }));
  for (const id of value ?? []) {
    if (!options.some((o) => o.value === id)) options.unshift({ value: id, label: seen.get(id) ?? id });
  }
  return (
    <Select
      mode="multiple"
      showSearch={{ filterOption: false, onSearch: setSearch }}
      value={value}
      onChange={(ids: string[]) => {
        setSearch('');
        onChange?.(ids);
      }}
      options={options}
      loading={ads.isFetching}
      placeholder={t('plan.adsHint')}
      data-testid="monitor-plan-ads"
    />
  );
}

/**
 * A new monitoring plan (monitoring.planCreate): a name, the ads to watch (those the caller
 * sees), the screens (one task each), the dates (UTC days; the tasks are due at the end of the
 * last one), the photographs each task needs, and the monitor among those the enterprise
 * agreed to (monitoring.monitors).
 */
export function PlanDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation(['monitoring', 'validation']);
  const can = useCan();
  const [form] = Form.useForm<Values>();
  const monitors = useCallQuery('monitoringMonitors', {}, { enabled: open });
  const chosen = { required: true, message: t('required', { ns: 'validation' }) };
  const today = dayjs().startOf('day');
  const noMonitors = monitors.isSuccess && monitors.data.length === 0;

  return (
    <FormDialog<Values>
      open={open}
      form={form}
      title={t('plan.add')}
      onClose={onClose}
      width={620}
      initialValues={{
        name: '',
        monitorAccountId: undefined,
        adIds: [],
        deviceIds: [],
        period: [today, today.add(6, 'day')],
        photosRequired: 1,
      }}
      submit={(v) =>
        call('monitoringPlanCreate', {
          name: v.name.trim(),
          monitorAccountId: v.monitorAccountId ?? '',
          adIds: v.adIds,
          deviceIds: v.deviceIds,
          startDate: (v.period?.[0] ?? today).format('YYYY-MM-DD'),
          endDate: (v.period?.[1] ?? today).format('YYYY-MM-DD'),
          photosRequired: v.photosRequired ?? 1,
        })
      }
      success={(answer) => t('plan.added', { count: (answer as { tasks: number }).tasks })}
      okText={t('common.save')}
      cancelText={t('common.cancel')}
      testId="monitor-plan-form"
      submitTestId="monitor-plan-submit"
    >
      <Form.Item name="name" label={t('plan.name')} rules={[requiredRule(t), maxLengthRule(t, 100)]}>
        <Input maxLength={100} data-testid="monitor-plan-name" />
      </Form.Item>
      <Form.Item name="adIds" label={t('plan.ads')} rules={[chosen]}>
        <AdSelect enabled={open} />
      </Form.Item>
      <Form.Item name="deviceIds" label={t('plan.screens')} rules={[chosen]} extra={t('plan.screensHint')}>
        <DeviceSelect
          mode="multiple"
          enabled={open}
          source={can(Perm.device) ? 'deviceList' : 'adTargetDevices'}
          placeholder={t('plan.screensSearch')}
          notFound={t('plan.noScreens')}
          testId="monitor-plan-screens"
        />
      </Form.Item>
      <Form.Item name="period" label={t('plan.period')} rules={[chosen]} extra={t('plan.periodHint')}>
        <DatePicker.RangePicker allowClear={false} data-testid="monitor-plan-period" />
      </Form.Item>
      <Form.Item name="photosRequired" label={t('plan.photosRequired')} rules={[chosen]}>
        <InputNumber
          min={1}
          max={MONITOR_PHOTOS_MAX}
          precision={0}
          style={{ width: 160 }}
          data-testid="monitor-plan-photos"
        />
      </Form.Item>
      <Form.Item
        name="monitorAccountId"
        label={t('plan.monitor')}
        rules={[chosen]}
        extra={noMonitors ? t('plan.noMonitors') : t('plan.monitorHint')}
      >
        <Select
          loading={monitors.isPending}
          placeholder={t('plan.monitorPick')}
          optionFilterProp="label"
          showSearch
          options={(monitors.data ?? []).map((m) => ({ value: m.accountId, label: `${m.name} (${m.entName})` }))}
          data-testid="monitor-plan-monitor"
        />
      </Form.Item>
    </FormDialog>
  );
}
