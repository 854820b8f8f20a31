import { CloseOutlined } from '@ant-design/icons';
import { Button, Typography } from 'antd';
import { type KeyboardEvent, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DeviceSelect } from '../../components/pickers/DevicePicker';
import './splice.css';

export interface GridTile {
  row: number;
  col: number;
  deviceId: string;
  deviceName: string;
}

/** 0, 1, ... n - 1. */
const range = (n: number) => Array.from({ length: n }, (_, i) => i);

/** The position `key` of a tile. */
const at = (row: number, col: number) => `${row}:${col}`;

/** The tiles that still fit a grid of `rows` x `cols`. */
export function tilesWithin(tiles: readonly GridTile[], rows: number, cols: number): GridTile[] {
  return tiles.filter((t) => t.row < rows && t.col < cols);
}

/** The next cell from `from` for an arrow key (stays inside the grid), or null for other keys. */
export function moveCell(
  from: { row: number; col: number },
  key: string,
  rows: number,
  cols: number,
): { row: number; col: number } | null {
  const clamp = (v: number, max: number) => Math.max(0, Math.min(max - 1, v));
  switch (key) {
    case 'ArrowUp':
      return { row: clamp(from.row - 1, rows), col: from.col };
    case 'ArrowDown':
      return { row: clamp(from.row + 1, rows), col: from.col };
    case 'ArrowLeft':
      return { row: from.row, col: clamp(from.col - 1, cols) };
    case 'ArrowRight':
      return { row: from.row, col: clamp(from.col + 1, cols) };
    case 'Home':
      return { row: from.row, col: 0 };
    case 'End':
      return { row: from.row, col: cols - 1 };
    default:
      return null;
  }
}

/**
 * The wall's rows x columns, each cell a tile that holds one device (the splicing screen
 * editor). Keyboard: arrow keys, Home and End move between cells, Enter or Space picks the
 * cell's device (the device picker below takes the focus), Delete or Backspace empties it.
 * A device fills one cell only: devices placed elsewhere in the grid are not offered.
 */
export function TileGrid({
  rows,
  cols,
  value = [],
  onChange,
  readOnly = false,
}: {
  rows: number;
  cols: number;
  value?: GridTile[];
  onChange?: (tiles: GridTile[]) => void;
  readOnly?: boolean;
}) {
  const { t } = useTranslation('splice');
  const [active, setActive] = useState({ row: 0, col: 0 });
  const cells = useRef(new Map<string, HTMLButtonElement>());
  const picker = useRef<{ focus: () => void } | null>(null);
  const byPosition = new Map(value.map((tile) => [at(tile.row, tile.col), tile]));
  const current = byPosition.get(at(active.row, active.col));

  // The active cell stays inside a grid that shrank.
  useEffect(() => {
    if (active.row >= rows || active.col >= cols) {
      setActive({ row: Math.min(active.row, rows - 1), col: Math.min(active.col, cols - 1) });
    }
  }, [rows, cols, active]);

  const focusCell = (row: number, col: number) => {
    setActive({ row, col });
    cells.current.get(at(row, col))?.focus();
  };
  const place = (deviceId: string | undefined, name = '') => {
    const rest = value.filter((tile) => !(tile.row === active.row && tile.col === active.col));
    onChange?.(deviceId ? [...rest, { ...active, deviceId, deviceName: name }] : rest);
  };
  const onCellKey = (event: KeyboardEvent, row: number, col: number) => {
    const next = moveCell({ row, col }, event.key, rows, cols);
    if (next) {
      event.preventDefault();
      focusCell(next.row, next.col);
    } else if (!readOnly && (event.key === 'Delete' || event.key === 'Backspace')) {
      event.preventDefault();
      setActive({ row, col });
      onChange?.(value.filter((tile) => !(tile.row === row && tile.col === col)));
    } else if (!readOnly && (event.key === 'Enter' || event.key === ' ')) {
      event.preventDefault();
      setActive({ row, col });
      picker.current?.focus();
    }
  };

  const usedElsewhere = new Set(
    value.filter((tile) => !(tile.row === active.row && tile.col === active.col)).map((tile) => tile.deviceId),
  );
  return (
    <div className="mq-splice-editor">
      <div
        role="grid"
        aria-label={t('grid.label', { rows, cols })}
        className="mq-splice-grid"
        style={{ gridTemplateColumns: `repeat(${cols}, minmax(0, 1fr))` }}
        data-testid="splice-grid"
      >
        {range(rows).map((row) => (
          <div role="row" key={row} className="mq-splice-row">
            {range(cols).map((col) => {
              const tile = byPosition.get(at(row, col));
              const isActive = active.row === row && active.col === col;
              const position = t('grid.position', { row: row + 1, col: col + 1 });
              return (
                <div role="gridcell" key={col} aria-selected={isActive}>
                  <button
                    type="button"
                    ref={(el) => {
                      if (el) cells.current.set(at(row, col), el);
                      else cells.current.delete(at(row, col));
                    }}
                    tabIndex={isActive ? 0 : -1}
                    className={`mq-splice-cell${tile ? ' is-filled' : ''}${isActive && !readOnly ? ' is-active' : ''}`}
                    aria-label={tile ? `${position}: ${tile.deviceName}` : `${position}: ${t('grid.empty')}`}
                    onClick={() => {
                      setActive({ row, col });
                      if (!readOnly) picker.current?.focus();
                    }}
                    onKeyDown={(e) => onCellKey(e, row, col)}
                    data-testid={`splice-cell-${row}-${col}`}
                  >
                    <span className="mq-splice-pos">{position}</span>
                    <span className="mq-splice-device">{tile ? tile.deviceName : t('grid.empty')}</span>
                  </button>
                </div>
              );
            })}
          </div>
        ))}
      </div>
      {readOnly ? null : (
        <div className="mq-splice-picker">
          <Typography.Text id="splice-picker-label" strong>
            {t('grid.pickFor', { row: active.row + 1, col: active.col + 1 })}
          </Typography.Text>
          <div className="mq-splice-picker-row">
            <DeviceSelect
              ref={(el) => {
                picker.current = el;
              }}
              aria-labelledby="splice-picker-label"
              allowClear
              style={{ flex: 1, minWidth: 0 }}
              placeholder={t('grid.pickPlaceholder')}
              value={current?.deviceId}
              known={current ? [{ id: current.deviceId, name: current.deviceName }] : undefined}
              disabledIds={usedElsewhere}
              notFound={t('grid.noDevices')}
              onChange={(id, device) => {
                place(id, device?.name ?? current?.deviceName ?? '');
                if (id) focusCell(active.row, active.col);
              }}
              testId="splice-device-picker"
            />
            <Button
              icon={<CloseOutlined />}
              disabled={!current}
              onClick={() => place(undefined)}
              data-testid="splice-clear-cell"
            >
              {t('grid.clear')}
            </Button>
          </div>
          <Typography.Text type="secondary">{t('grid.keys')}</Typography.Text>
        </div>
      )}
    </div>
  );
}
