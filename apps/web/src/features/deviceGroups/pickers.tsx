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

/** A multiple select over the options one of the hooks above loads. */
function optionsSelect(useOptions: typeof useTagOptions) {
  return function OptionsSelect({ testId, enabled = true, ...rest }: PickerProps) {
    const options = useOptions(enabled);
    return (
      <Select
        mode="multiple"
        optionFilterProp="label"
        loading={options.isFetching}
        options={options.data ?? []}
        data-testid={testId}
        {...rest}
      />
    );
  };
}

/** Picks several device tags (bulk tagging, sharing, ad targets). */
export const TagSelect = optionsSelect(useTagOptions);
/** Picks several device groups (sharing, ad targets). */
export const GroupSelect = optionsSelect(useGroupOptions);
