import { SettingOutlined } from '@ant-design/icons';
import { Button, Checkbox, Popover, Tooltip } from 'antd';
import { type KeyboardEvent, useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSession } from '../session/session';
import {
  type ColumnOverrides,
  isColumnShown,
  loadColumnOverrides,
  saveColumnOverrides,
  type TableColumn,
  withColumnShown,
} from './tableConfig';

/**
 * The signed-in account's column choice for one table, kept in localStorage per account and
 * table id (it follows the account on this browser, not across browsers).
 */
export function useColumnOverrides<T>(tableId: string, columns: readonly TableColumn<T>[]) {
  const accountId = useSession((s) => s.id);
  const [state, setState] = useState(() => ({
    key: `${accountId}\u0000${tableId}`,
    overrides: loadColumnOverrides(accountId, tableId),
  }));
  // Another account or table: read its own choice.
  const key = `${accountId}\u0000${tableId}`;
  const overrides = state.key === key ? state.overrides : loadColumnOverrides(accountId, tableId);
  if (state.key !== key) setState({ key, overrides });

  const write = useCallback(
    (next: ColumnOverrides) => {
      saveColumnOverrides(accountId, tableId, next);
      setState({ key: `${accountId}\u0000${tableId}`, overrides: next });
    },
    [accountId, tableId],
  );
  const setShown = useCallback(
    (prop: string, shown: boolean) => write(withColumnShown(columns, overrides, prop, shown)),
    [columns, overrides, write],
  );
  const reset = useCallback(() => write({}), [write]);
  return { overrides, setShown, reset };
}

/**
 * The column-settings control of a list: a button opening a popover with a checkbox per
 * column (the first one always shows) and 'reset' back to the table's defaults. Keyboard:
 * Enter or Space opens it and moves focus to the first checkbox, Tab moves between
 * checkboxes and reset, Space toggles, Escape closes and returns focus to the button.
 */
export function ColumnSettings<T>({
  tableId,
  columns,
  overrides,
  onShownChange,
  onReset,
}: {
  tableId: string;
  columns: readonly TableColumn<T>[];
  overrides: ColumnOverrides;
  onShownChange: (prop: string, shown: boolean) => void;
  onReset: () => void;
}) {
  const { t } = useTranslation('table');
  const [open, setOpen] = useState(false);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const listRef = useRef<HTMLDivElement>(null);
  const panelId = `mq-columns-${tableId}`;
  const changed = Object.keys(overrides).length > 0;

  useEffect(() => {
    if (!open) return;
    // After the popover mounts: focus the first checkbox that can change.
    const timer = setTimeout(() => listRef.current?.querySelector<HTMLInputElement>('input:not([disabled])')?.focus());
    return () => clearTimeout(timer);
  }, [open]);

  const close = () => {
    setOpen(false);
    buttonRef.current?.focus();
  };
  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key === 'Escape') {
      e.stopPropagation();
      close();
    }
  };

  const content = (
    <div
      id={panelId}
      ref={listRef}
      role="group"
      aria-label={t('columns.title')}
      className="mq-column-settings"
      onKeyDown={onKeyDown}
      data-testid={`columns-panel-${tableId}`}
    >
      <div className="mq-column-settings-list">
        {columns.map((column, index) => {
          const checkbox = (
            <Checkbox
              key={column.prop}
              checked={isColumnShown(columns, column.prop, overrides)}
              disabled={index === 0}
              onChange={(e) => onShownChange(column.prop, e.target.checked)}
              data-testid={`column-toggle-${column.prop}`}
            >
              {column.label}
            </Checkbox>
          );
          return index === 0 ? (
            <Tooltip key={column.prop} title={t('columns.alwaysShown')} placement="left">
              {checkbox}
            </Tooltip>
          ) : (
            checkbox
          );
        })}
      </div>
      <div className="mq-column-settings-footer">
        <Button size="small" type="link" disabled={!changed} onClick={onReset} data-testid={`columns-reset-${tableId}`}>
          {t('columns.reset')}
        </Button>
      </div>
    </div>
  );

  return (
    <Popover
      trigger="click"
      placement="bottomRight"
      title={t('columns.title')}
      content={content}
      open={open}
      onOpenChange={(next) => (next ? setOpen(true) : close())}
      destroyOnHidden
    >
      <Button
        ref={buttonRef}
        icon={<SettingOutlined />}
        aria-haspopup="true"
        aria-expanded={open}
        aria-controls={open ? panelId : undefined}
        data-testid={`columns-${tableId}`}
      >
        {t('columns.button')}
      </Button>
    </Popover>
  );
}
