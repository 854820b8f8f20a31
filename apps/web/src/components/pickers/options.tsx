import type { EndpointName, Endpoints, Req, Res } from '@marquee/protocol';
import { Select, type SelectProps } from 'antd';
import { useCallQuery } from '../../api/queries';

/**
 * Pickers over a catalogue endpoint that answers every choice at once (device groups, device
 * tags, stores): `useOptions` loads it as `{ value, label }` options, `optionsSelect` makes a
 * searchable multiple select of them. The select of one of them in a filter bar takes the
 * options from the same hook, so all of them share one cached query.
 */
export interface Option {
  value: string;
  label: string;
}

type Rows<N extends EndpointName> = Res<Endpoints[N]>;

/** An endpoint's answer as options (loaded only while `enabled`). */
export function useOptions<N extends EndpointName>(
  name: N,
  request: Req<Endpoints[N]>,
  toOptions: (answer: Rows<N>) => Option[],
  enabled = true,
) {
  return useCallQuery(name, request, { enabled, select: toOptions });
}

/** The device tags the caller sees, as `category / tag` options (deviceTag.options). */
export function useTagOptions(enabled = true) {
  return useOptions(
    'deviceTagOptions',
    {},
    (rows) => rows.map((x) => ({ value: x.id, label: `${x.categoryName} / ${x.name}` })),
    enabled,
  );
}

/** The device groups the caller sees, as options (deviceGroup.options). */
export function useGroupOptions(enabled = true) {
  return useOptions('deviceGroupOptions', {}, (rows) => rows.map((x) => ({ value: x.id, label: x.name })), enabled);
}

/** The stores the caller sees (the first 500), as options (store.list). */
export function useStoreOptions(enabled = true) {
  return useOptions(
    'storeList',
    { page: 1, size: 500 },
    (answer) => answer.data.map((x) => ({ value: x.id, label: x.name })),
    enabled,
  );
}

export type OptionsSelectProps = Omit<SelectProps<string[]>, 'options' | 'mode'> & {
  testId: string;
  /** Loads the options (e.g. only while the dialog is open). */
  enabled?: boolean;
};

/** A searchable multiple select over the options one of the hooks above loads. */
export function optionsSelect(useLoad: (enabled: boolean) => { data?: Option[]; isFetching: boolean }) {
  return function OptionsSelect({ testId, enabled = true, ...rest }: OptionsSelectProps) {
    const options = useLoad(enabled);
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
