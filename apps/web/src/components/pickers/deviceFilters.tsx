import { DEVICE_STATUSES, type Endpoints, type Req } from '@marquee/protocol';
import { DatePicker } from 'antd';
import dayjs from 'dayjs';
import type { TFunction } from 'i18next';
import type { FilterField } from '../listPage';
import { useGroupOptions, useStoreOptions, useTagOptions } from './options';
import { useDictionary } from './useDictionary';

/**
 * The device filter vocabulary in one place: the fields device.list filters by (keyword: name,
 * number, IP or MAC; status; type; scene; player version; expiry; group; tag; store) as list-page
 * filter declarations with their texts (the `devices` namespace) and test ids
 * (`device-filter-<name>`), and the status options any device filter offers. The types are the
 * dictionary `deviceType` (issue 31), the scenes the dictionary `scene`: every entry, a disabled
 * one too (devices still hold it).
 */
export type DeviceFilterKey = Extract<
  keyof Req<Endpoints['deviceList']>,
  | 'keyword'
  | 'status'
  | 'deptId'
  | 'type'
  | 'scene'
  | 'expireBefore'
  | 'playerVersion'
  | 'groupId'
  | 'tagId'
  | 'storeId'
>;

/** The device statuses as select options. */
export const deviceStatusOptions = (t: TFunction) =>
  DEVICE_STATUSES.map((s) => ({ value: s, label: t(`devices:status.${s}`) }));

/** A day picked, as the ISO instant the form (and the URL) keeps. */
export function InstantDayPicker({
  value,
  onChange,
  testId,
}: {
  value?: string;
  onChange?: (v: string | undefined) => void;
  testId: string;
}) {
  return (
    <DatePicker
      value={value ? dayjs(value) : null}
      onChange={(day) => onChange?.(day ? day.toDate().toISOString() : undefined)}
      data-testid={testId}
    />
  );
}

/**
 * The device list's filter fields, in the bar's order; `dept` (a department picker, only for
 * who may pick one) goes after the status; `stores`: the store filter is offered.
 */
export function useDeviceFilters(
  t: TFunction,
  { dept, stores }: { dept?: FilterField<DeviceFilterKey>; stores: boolean },
): FilterField<DeviceFilterKey>[] {
  const groups = useGroupOptions();
  const tags = useTagOptions();
  const storeOptions = useStoreOptions(stores);
  const types = useDictionary('deviceType');
  const scenes = useDictionary('scene');
  const all = t('devices:all');
  const pick = { kind: 'select', showSearch: true, placeholder: all } as const;
  return [
    {
      key: 'keyword',
      label: t('devices:field.keyword'),
      placeholder: t('devices:field.keywordHint'),
      testId: 'device-filter-keyword',
    },
    {
      key: 'status',
      kind: 'select',
      label: t('devices:field.status'),
      options: deviceStatusOptions(t),
      placeholder: all,
      width: 140,
      testId: 'device-filter-status',
    },
    ...(dept ? [dept] : []),
    {
      key: 'type',
      kind: 'select',
      label: t('devices:field.type'),
      options: types.items.map((i) => ({ value: i.code, label: i.label })),
      loading: types.loading,
      placeholder: all,
      width: 140,
      testId: 'device-filter-type',
    },
    {
      key: 'scene',
      kind: 'select',
      label: t('devices:field.scene'),
      options: scenes.items.map((i) => ({ value: i.code, label: i.label })),
      loading: scenes.loading,
      placeholder: all,
      width: 140,
      testId: 'device-filter-scene',
    },
    { key: 'playerVersion', label: t('devices:field.playerVersion'), width: 140, testId: 'device-filter-version' },
    {
      key: 'expireBefore',
      kind: 'custom',
      label: t('devices:field.expireBefore'),
      render: () => <InstantDayPicker testId="device-filter-expire" />,
    },
    {
      ...pick,
      key: 'groupId',
      label: t('devices:field.group'),
      options: groups.data ?? [],
      loading: groups.isLoading,
      testId: 'device-filter-group',
    },
    {
      ...pick,
      key: 'tagId',
      label: t('devices:field.tags'),
      options: tags.data ?? [],
      loading: tags.isLoading,
      testId: 'device-filter-tag',
    },
    {
      ...pick,
      key: 'storeId',
      label: t('devices:field.store'),
      options: storeOptions.data ?? [],
      loading: storeOptions.isLoading,
      hidden: !stores,
      testId: 'device-filter-store',
    },
  ];
}
