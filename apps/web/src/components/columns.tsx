import { formatTime } from '@marquee/protocol';
import { Tag } from 'antd';
import type { TableColumn } from './tableConfig';

/**
 * Column kinds list pages share, so each page's table config names what a column is and
 * not how it draws: a point in time (spec section 9's YYYY-MM-DD HH:mm:ss) and a tag whose
 * colour and text come from the value (statuses, kinds).
 */
type ColumnOptions<T> = Omit<TableColumn<T>, 'prop' | 'label' | 'slot'>;

/** A time column: the spec's display format, '-' when empty. */
export function timeColumn<T>(prop: string, label: string, options: ColumnOptions<T> = {}): TableColumn<T> {
  return { width: 170, ...options, prop, label, slot: (v: string | null) => formatTime(v) };
}

export interface TagLook {
  color?: string;
  text: string;
}

/** A tag column: `look` gives each value its colour and (translated) text. */
export function tagColumn<T>(
  prop: string,
  label: string,
  look: (value: string) => TagLook,
  options: ColumnOptions<T> = {},
): TableColumn<T> {
  return {
    width: 100,
    ...options,
    prop,
    label,
    slot: (v: string) => {
      const { color, text } = look(v);
      return <Tag color={color}>{text}</Tag>;
    },
  };
}

/** The look of an enabled / paused status (accounts, enterprises, advertisers). */
export function enabledLook(t: (key: string) => string): (value: string) => TagLook {
  return (v) => ({ color: v === 'enabled' ? 'success' : 'default', text: t(`status.${v}`) });
}
