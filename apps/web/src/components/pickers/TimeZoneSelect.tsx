import { formatOffset } from '@marquee/protocol';
import { Select } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useCallQuery } from '../../api/queries';

/**
 * A searchable select of IANA time zones (timeZone.list), each shown with its offset now
 * (`UTC+08:00 Asia/Shanghai`); searching matches the name or the offset. With `followLabel`,
 * clearing it means "the enterprise's zone" (a device without its own), shown as the placeholder.
 */
export function TimeZoneSelect({
  value,
  onChange,
  enabled = true,
  follow = false,
  testId,
}: {
  value?: string | null;
  onChange?: (value: string | null) => void;
  enabled?: boolean;
  /** Empty means: follow the enterprise's zone. */
  follow?: boolean;
  testId: string;
}) {
  const { t } = useTranslation('common');
  const { data, isFetching } = useCallQuery('timeZoneList', {}, { enabled, staleTime: 3600_000 });
  const options = useMemo(
    () =>
      (data?.zones ?? []).map((z) => ({
        value: z.name,
        label: `${formatOffset(z.offsetMinutes)} ${z.name}`,
      })),
    [data],
  );
  return (
    <Select
      showSearch={{ optionFilterProp: 'label' }}
      allowClear={follow}
      loading={isFetching}
      value={value ?? undefined}
      onChange={(v) => onChange?.(v ?? null)}
      options={options}
      placeholder={follow && data ? t('timeZone.followEnterprise', { zone: data.enterprise }) : t('timeZone.search')}
      aria-label={t('timeZone.label')}
      data-testid={testId}
      style={{ width: '100%' }}
    />
  );
}
