import type { DeviceRow, Endpoints, Req } from '@marquee/protocol';
import { type RefSelectProps, Select, type SelectProps, Transfer, Typography } from 'antd';
import { type ReactNode, type Ref, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useCallQuery } from '../../api/queries';

/**
 * THE device picker: every place that picks devices (a page's device, a store's devices, a
 * wall's tiles, a group's or a tag's members, bulk tagging) searches the caller's visible
 * devices the same way (device.list's keyword: name, number, IP or MAC, on the server) and
 * names them the same way. `DeviceSelect` picks one or several in a select; `DeviceTransfer`
 * picks many in a two-sided transfer. Both share `useDeviceSearch`.
 */

/** A device as the pickers know it: its id, name and number. */
export interface KnownDevice {
  id: string;
  name: string;
  number?: string | null;
}

/** A device as a picker names it: its name and, when it has one, its number. */
export const deviceLabel = (d: KnownDevice) => (d.number ? `${d.name} (${d.number})` : d.name);

/**
 * Where devices are searched: the device list (the device pages' permission), or the ad form's
 * own list (ad.targetDevices: whoever may make ads picks among the screens they see; its rows
 * have only the id, name and number).
 */
export type DeviceSource = 'deviceList' | 'adTargetDevices';

/** How long the search waits for the typing to pause (ms). */
const SEARCH_PAUSE = 250;

/**
 * The first `limit` devices the caller sees matching `search` (trimmed, sent once the typing
 * pauses); the previous answer stays shown while the next loads.
 */
export function useDeviceSearch<S extends DeviceSource = 'deviceList'>(
  search: string,
  { limit = 50, enabled = true, source = 'deviceList' as S }: { limit?: number; enabled?: boolean; source?: S } = {},
) {
  const [keyword, setKeyword] = useState(search.trim());
  useEffect(() => {
    const next = search.trim();
    const timer = setTimeout(() => setKeyword(next), next ? SEARCH_PAUSE : 0);
    return () => clearTimeout(timer);
  }, [search]);
  // Both sources take a page and a keyword.
  const request = { page: 1, size: limit, keyword: keyword || undefined } as Req<Endpoints[S]>;
  return useCallQuery(source, request, { keepPrevious: true, enabled });
}

/**
 * Every device seen (found by a search, or `known` beforehand) by id, so a chosen one keeps its
 * name once the search moves on. Written while rendering: adding the same rows again changes nothing.
 */
function useSeenDevices(rows: readonly KnownDevice[] | undefined, known: readonly KnownDevice[] | undefined) {
  const seen = useRef(new Map<string, KnownDevice>());
  for (const d of [...(known ?? []), ...(rows ?? [])]) seen.current.set(d.id, d);
  return seen.current;
}

interface DeviceSelectBase
  extends Omit<SelectProps, 'options' | 'mode' | 'value' | 'onChange' | 'showSearch' | 'filterOption' | 'loading'> {
  testId: string;
  /** How many matches are offered at once (default 50; the search narrows them). */
  limit?: number;
  /** Search only while true (e.g. while the dialog is open). */
  enabled?: boolean;
  /** Devices chosen before (an edited record's), named without a search. */
  known?: readonly KnownDevice[];
  /** Devices offered but not pickable (already used elsewhere). */
  disabledIds?: ReadonlySet<string>;
  /** Shown when the search finds nothing. */
  notFound?: ReactNode;
  /** Told each search's answer (a page that shows more of the chosen device than its name; the device list only). */
  onFound?: (rows: readonly DeviceRow[]) => void;
  /** Where the devices are searched (default the device list). */
  source?: DeviceSource;
  ref?: Ref<RefSelectProps>;
}

export type DeviceSelectProps =
  | (DeviceSelectBase & {
      mode?: undefined;
      value?: string;
      /** The chosen device's id and row (undefined when cleared). */
      onChange?: (id: string | undefined, device: DeviceRow | undefined) => void;
    })
  | (DeviceSelectBase & { mode: 'multiple'; value?: string[]; onChange?: (ids: string[]) => void });

/** Picks one device (or several with `mode="multiple"`) by a server-side search. */
export function DeviceSelect(props: DeviceSelectProps) {
  const { testId, limit, enabled, known, disabledIds, notFound, onFound, source, mode, value, onChange, ...rest } =
    props;
  const [search, setSearch] = useState('');
  const found = useDeviceSearch(search, { limit, enabled, source });
  // The device list's rows are whole (DeviceRow); ad.targetDevices' only named.
  const rows = found.data?.data as readonly DeviceRow[] | undefined;
  const seen = useSeenDevices(rows, known);
  const whole = (source ?? 'deviceList') === 'deviceList';
  useEffect(() => {
    if (rows && whole) onFound?.(rows);
  }, [rows, whole, onFound]);

  const options = (rows ?? []).map((d) => ({ value: d.id, label: deviceLabel(d), disabled: disabledIds?.has(d.id) }));
  // The chosen devices stay named when the search no longer finds them.
  const chosen = value === undefined ? [] : Array.isArray(value) ? value : [value];
  for (const id of chosen) {
    if (!options.some((o) => o.value === id)) {
      options.unshift({ value: id, label: deviceLabel(seen.get(id) ?? { id, name: id }), disabled: false });
    }
  }
  const change = (next: string | string[] | undefined) => {
    setSearch('');
    if (props.mode === 'multiple') props.onChange?.((next as string[] | undefined) ?? []);
    else props.onChange?.(next as string | undefined, whole ? rows?.find((d) => d.id === next) : undefined);
  };
  return (
    <Select
      mode={mode}
      showSearch={{ filterOption: false, onSearch: setSearch }}
      value={value}
      onChange={change}
      options={options}
      loading={found.isFetching}
      notFoundContent={found.isFetching ? null : notFound}
      data-testid={testId}
      {...rest}
    />
  );
}

/**
 * Picks many devices in a transfer: the left side lists the devices matching the search
 * (on the server), the right side the chosen ones (filtered here). `known` names the devices
 * chosen before (a group's current members), so the right side shows them without a search.
 * A found device's description shows the group it is in now (adding it moves it).
 */
export function DeviceTransfer({
  value,
  onChange,
  known,
  testId,
  limit = 100,
}: {
  value: string[];
  onChange: (ids: string[]) => void;
  known?: readonly KnownDevice[];
  testId: string;
  /** How many matches the left side shows at once (the search narrows them). */
  limit?: number;
}) {
  const { t } = useTranslation('deviceGroups');
  const [search, setSearch] = useState('');
  const found = useDeviceSearch(search, { limit });
  const rows = found.data?.data;
  const seen = useSeenDevices(rows, known);

  const dataSource = new Map<string, { key: string; title: string; description: string }>();
  for (const id of value) {
    const d = seen.get(id);
    if (d) dataSource.set(id, { key: id, title: d.name, description: d.number ?? '' });
  }
  for (const d of rows ?? []) {
    if (value.includes(d.id)) continue;
    dataSource.set(d.id, {
      key: d.id,
      title: d.name,
      description: [d.number, d.groupName].filter(Boolean).join(' · '),
    });
  }

  // antd's Transfer renders its checkboxes without names: name each one after its row (the
  // device) or its list ('select all' of that side), also as rows come and go.
  const box = useRef<HTMLDivElement>(null);
  const allLeft = t('picker.selectAll', { list: t('picker.available') });
  const allRight = t('picker.selectAll', { list: t('picker.chosen') });
  useEffect(() => {
    const root = box.current;
    if (!root) return;
    const label = () => {
      root.querySelectorAll<HTMLElement>('.ant-transfer-section').forEach((section, i) => {
        const header = section.querySelector<HTMLInputElement>('.ant-transfer-list-header input[type=checkbox]');
        if (header) header.setAttribute('aria-label', i === 0 ? allLeft : allRight);
        for (const input of section.querySelectorAll<HTMLInputElement>('li input[type=checkbox]')) {
          const name = input.closest('li')?.textContent?.trim() ?? '';
          if (input.getAttribute('aria-label') !== name) input.setAttribute('aria-label', name);
        }
      });
    };
    label();
    const observer = new MutationObserver(label);
    observer.observe(root, { childList: true, subtree: true });
    return () => observer.disconnect();
  }, [allLeft, allRight]);

  return (
    <div data-testid={testId} ref={box}>
      <Transfer
        dataSource={[...dataSource.values()]}
        targetKeys={value}
        onChange={(keys) => onChange(keys.map(String))}
        showSearch
        onSearch={(direction, v) => {
          if (direction === 'left') setSearch(v);
        }}
        filterOption={(input, item, direction) =>
          direction === 'left' || `${item.title} ${item.description}`.toLowerCase().includes(input.trim().toLowerCase())
        }
        render={(item) => (
          <span data-testid={`${testId}-item-${item.title}`}>
            {item.title}
            {item.description ? <Typography.Text type="secondary"> · {item.description}</Typography.Text> : null}
          </span>
        )}
        titles={[t('picker.available'), t('picker.chosen')]}
        locale={{
          itemUnit: t('picker.item'),
          itemsUnit: t('picker.items'),
          searchPlaceholder: t('picker.search'),
          // A text of the skin's secondary colour (antd's own grey is below 4.5:1).
          notFoundContent: <Typography.Text type="secondary">{t('picker.empty')}</Typography.Text>,
        }}
        styles={{ section: { width: 360, height: 380 } }}
      />
      {(found.data?.total ?? 0) > limit ? (
        <Typography.Text type="secondary">{t('picker.more', { limit })}</Typography.Text>
      ) : null}
    </div>
  );
}
