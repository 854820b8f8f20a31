import { fenToYuan } from '@marquee/protocol';
import { Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { useCallQuery } from '../../api/queries';

/**
 * A slot of the enterprise to choose (a form control: the form gives value and onChange),
 * each shown with its sales method and list price, searchable by name: the goods lines and the
 * price contracts' slot prices.
 */
export function SlotChoice({
  value,
  onChange,
  placeholder,
  label,
  testId,
}: {
  value?: string;
  onChange?: (slotId: string) => void;
  placeholder: string;
  /** The accessible name (the row has no label of its own). */
  label: string;
  testId: string;
}) {
  const { t } = useTranslation('sales');
  const slots = useCallQuery('salesSlotOptions', {}, { staleTime: 30_000 });
  return (
    <Select
      value={value}
      onChange={(id: string) => onChange?.(id)}
      showSearch
      optionFilterProp="label"
      style={{ width: 300 }}
      loading={slots.isPending}
      placeholder={placeholder}
      aria-label={label}
      options={(slots.data?.data ?? []).map((s) => ({
        value: s.id,
        label: `${s.name} · ${t(`method.${s.salesMethod}`)} · ${s.unitPrice == null ? '-' : `¥${fenToYuan(s.unitPrice)}`}`,
      }))}
      data-testid={testId}
    />
  );
}
