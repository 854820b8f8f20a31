import { Select } from 'antd';
import type { Dictionary } from './useDictionary';

/**
 * A dictionary's enabled entries as a searchable, clearable select (issue 31); `current`, the
 * stored code, is offered too when disabled since. The form item gives its value and onChange.
 * Shared by every form that offers a dictionary (device type and scene, advertiser industry).
 */
export function DictionarySelect({
  dictionary,
  current,
  testId,
  ...field
}: {
  dictionary: Dictionary;
  current?: string | null;
  testId: string;
  value?: string | null;
  onChange?: (value: string | null) => void;
}) {
  return (
    <Select
      {...field}
      allowClear
      options={dictionary.options(current)}
      loading={dictionary.loading}
      showSearch={{ optionFilterProp: 'label' }}
      data-testid={testId}
    />
  );
}
