import type { Region } from '@marquee/protocol';
import { Cascader } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../../api/client';

interface Option {
  value: string;
  label: string;
  isLeaf: boolean;
  children?: Option[];
}

const toOption = (r: Region): Option => ({ value: r.code, label: r.name, isLeaf: !r.hasChildren });

/** The codes from the province down to `code` (GB/T 2260: 440305 -> 440000, 440300, 440305). */
export function codePath(code: string): string[] {
  const province = `${code.slice(0, 2)}0000`;
  const city = `${code.slice(0, 4)}00`;
  return [province, city, code].filter((c, i, all) => all.indexOf(c) === i);
}

function withChildren(options: Option[], code: string, children: Option[]): Option[] {
  return options.map((o) =>
    o.value === code
      ? { ...o, children }
      : o.children
        ? { ...o, children: withChildren(o.children, code, children) }
        : o,
  );
}

/**
 * A province > city > district picker over the national region data (region.children, loaded
 * level by level). Its value is one region code of any level (a filter may stop at a
 * province); a given value loads its path first, so the picker shows its names.
 */
export function RegionPicker({
  value,
  onChange,
  testId,
  placeholder,
  style,
}: {
  value?: string;
  onChange?: (code: string | undefined) => void;
  testId?: string;
  placeholder?: string;
  style?: React.CSSProperties;
}) {
  const { t } = useTranslation('stores');
  const [options, setOptions] = useState<Option[]>([]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: the path of the first value is loaded once
  useEffect(() => {
    let cancelled = false;
    void (async () => {
      let tree = (await call('regionChildren', {})).map(toOption);
      // A value from the URL or the edited row: load the levels above it.
      if (value) {
        for (const code of codePath(value).slice(0, -1)) {
          const children = await call('regionChildren', { parentCode: code }).catch(() => null);
          if (!children) break;
          tree = withChildren(tree, code, children.map(toOption));
        }
      }
      if (!cancelled) setOptions(tree);
    })().catch(() => {});
    return () => {
      cancelled = true;
    };
  }, []);

  const loadData = async (selected: Option[]) => {
    const target = selected[selected.length - 1];
    if (!target || target.children) return;
    const children = await call('regionChildren', { parentCode: target.value });
    setOptions((current) => withChildren(current, target.value, children.map(toOption)));
  };

  return (
    <Cascader<Option>
      options={options}
      loadData={loadData}
      changeOnSelect
      allowClear
      showSearch={false}
      value={value ? codePath(value) : undefined}
      onChange={(path) => onChange?.(path && path.length > 0 ? String(path[path.length - 1]) : undefined)}
      placeholder={placeholder ?? t('region.choose')}
      style={style}
      data-testid={testId}
      aria-label={t('field.region')}
    />
  );
}
