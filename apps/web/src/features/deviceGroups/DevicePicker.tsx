import type { MemberDevice } from '@marquee/protocol';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Transfer, Typography } from 'antd';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../../api/client';

/** How many matches the left side shows at once (the search narrows them). */
const PAGE = 100;

/**
 * A searchable transfer of devices: the left side lists the caller's visible devices matching
 * the search (name or number, on the server), the right side the chosen ones (filtered here).
 * `known` names the devices chosen before (a group's current members), so the right side
 * shows them without a search.
 */
export function DevicePicker({
  value,
  onChange,
  known,
  testId,
}: {
  value: string[];
  onChange: (ids: string[]) => void;
  known: readonly MemberDevice[];
  testId: string;
}) {
  const { t } = useTranslation('deviceGroups');
  const [search, setSearch] = useState('');
  const [keyword, setKeyword] = useState('');
  const [names, setNames] = useState<Record<string, MemberDevice>>({});

  useEffect(() => {
    const timer = setTimeout(() => setKeyword(search.trim()), 300);
    return () => clearTimeout(timer);
  }, [search]);
  useEffect(() => {
    if (known.length) setNames((prev) => ({ ...prev, ...Object.fromEntries(known.map((d) => [d.id, d])) }));
  }, [known]);

  const found = useQuery({
    queryKey: ['deviceGroups', 'picker', keyword],
    queryFn: ({ signal }) => call('deviceList', { page: 1, size: PAGE, keyword: keyword || undefined }, { signal }),
    placeholderData: keepPreviousData,
  });
  const rows = found.data?.data;
  useEffect(() => {
    if (rows?.length) {
      setNames((prev) => ({
        ...prev,
        ...Object.fromEntries(rows.map((d) => [d.id, { id: d.id, name: d.name, number: d.number }])),
      }));
    }
  }, [rows]);

  // The number and, for a device found by the search, the group it is in now (adding it moves it).
  const dataSource = useMemo(() => {
    const map = new Map<string, { key: string; title: string; description: string }>();
    for (const id of value)
      if (names[id]) map.set(id, { key: id, title: names[id].name, description: names[id].number ?? '' });
    for (const d of rows ?? []) {
      if (value.includes(d.id)) continue;
      const description = [d.number, d.groupName].filter(Boolean).join(' · ');
      map.set(d.id, { key: d.id, title: d.name, description });
    }
    return [...map.values()];
  }, [names, rows, value]);

  // antd's Transfer renders its checkboxes without names: name each one after its row (the
  // device) or its list ('select all' of that side), also as rows come and go.
  const box = useRef<HTMLDivElement>(null);
  const selectAll = [
    t('picker.selectAll', { list: t('picker.available') }),
    t('picker.selectAll', { list: t('picker.chosen') }),
  ];
  const [allLeft, allRight] = selectAll;
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
        dataSource={dataSource}
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
      {(found.data?.total ?? 0) > PAGE ? (
        <Typography.Text type="secondary">{t('picker.more', { limit: PAGE })}</Typography.Text>
      ) : null}
    </div>
  );
}
