import { useQuery } from '@tanstack/react-query';
import { Select, type SelectProps } from 'antd';
import { call } from '../../api/client';

type PickerProps = Omit<SelectProps<string[]>, 'options' | 'mode'> & {
  testId: string;
  /** Loads the options (e.g. only while the dialog is open). */
  enabled?: boolean;
};

/** The device tags the caller sees, as `category / tag` options (deviceTag.options). */
export function useTagOptions(enabled = true) {
  return useQuery({
    queryKey: ['deviceTags', 'options'],
    queryFn: ({ signal }) => call('deviceTagOptions', {}, { signal }),
    enabled,
    select: (rows) => rows.map((x) => ({ value: x.id, label: `${x.categoryName} / ${x.name}` })),
  });
}

/** The device groups the caller sees, as options (deviceGroup.options). */
export function useGroupOptions(enabled = true) {
  return useQuery({
    queryKey: ['deviceGroups', 'options'],
    queryFn: ({ signal }) => call('deviceGroupOptions', {}, { signal }),
    enabled,
    select: (rows) => rows.map((x) => ({ value: x.id, label: x.name })),
  });
}

/** Picks several device tags (bulk tagging, sharing, ad targets). */
export function TagSelect({ testId, enabled = true, ...rest }: PickerProps) {
  const tags = useTagOptions(enabled);
  return (
    <Select
      mode="multiple"
      optionFilterProp="label"
      loading={tags.isFetching}
      options={tags.data ?? []}
      data-testid={testId}
      {...rest}
    />
  );
}

/** Picks several device groups (sharing, ad targets). */
export function GroupSelect({ testId, enabled = true, ...rest }: PickerProps) {
  const groups = useGroupOptions(enabled);
  return (
    <Select
      mode="multiple"
      optionFilterProp="label"
      loading={groups.isFetching}
      options={groups.data ?? []}
      data-testid={testId}
      {...rest}
    />
  );
}
