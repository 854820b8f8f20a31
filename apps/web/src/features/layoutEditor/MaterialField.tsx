import { ArrowDownOutlined, ArrowUpOutlined, DeleteOutlined, FolderOpenOutlined } from '@ant-design/icons';
import { LAYOUT_LIMITS, lookupMaterial, type PlaylistItem } from '@marquee/layout';
import { Button, InputNumber, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { MaterialKind } from '../materials/MaterialPicker';
import { useModule } from './lazyModule';
import { useEditorMaterials, useRememberMaterials } from './materialsContext';

export type { MaterialKind };

/**
 * The library picker (its folder tree, list and search, and their requests) loads when a field
 * first opens it, not with the editor.
 */
const loadPicker = () => import('../materials/MaterialPicker');

/**
 * The playlist of a picture, video or music component (or a page's background picture):
 * materials picked from the library (MaterialPicker), in order, each with its duration where
 * the component plays a sequence; reorder, remove.
 */
export function MaterialField({
  kind,
  value,
  onCommit,
  single,
  withDuration,
}: {
  kind: MaterialKind;
  value: readonly PlaylistItem[];
  onCommit: (items: PlaylistItem[]) => void;
  single?: boolean;
  withDuration?: boolean;
}) {
  const { t } = useTranslation('layoutEditor');
  const materials = useEditorMaterials();
  const remember = useRememberMaterials();
  const [picking, setPicking] = useState(false);
  // Mounted from the first pick on (its dialog then closes with its animation).
  const [pickerUsed, setPickerUsed] = useState(false);
  const picker = useModule(loadPicker, pickerUsed).module;
  const room = single ? 1 : LAYOUT_LIMITS.maxPlaylistItems - value.length;
  const full = !single && room <= 0;
  const move = (from: number, to: number) => {
    const next = [...value];
    const [item] = next.splice(from, 1);
    next.splice(to, 0, item);
    onCommit(next);
  };
  return (
    <div className="mq-le-materials" data-testid={`le-materials-${kind}`}>
      {value.length === 0 ? (
        <Typography.Text type="secondary">{t('materials.none')}</Typography.Text>
      ) : (
        <ol className="mq-le-material-list">
          {value.map((item, i) => {
            const known = lookupMaterial(materials, item.materialId);
            return (
              // biome-ignore lint/suspicious/noArrayIndexKey: a playlist may hold the same material twice; its position is its identity
              <li key={`${item.materialId}-${i}`}>
                <span className="mq-le-material-name" title={item.materialId}>
                  {known?.name || item.materialId}
                </span>
                {withDuration ? (
                  <InputNumber
                    size="small"
                    min={1}
                    max={LAYOUT_LIMITS.maxPageDuration}
                    value={item.duration}
                    suffix={t('unit.seconds')}
                    style={{ width: 92 }}
                    onChange={(v) =>
                      typeof v === 'number' && onCommit(value.map((x, j) => (j === i ? { ...x, duration: v } : x)))
                    }
                  />
                ) : null}
                {single ? null : (
                  <>
                    <Button
                      type="text"
                      size="small"
                      icon={<ArrowUpOutlined />}
                      disabled={i === 0}
                      onClick={() => move(i, i - 1)}
                      aria-label={t('materials.up')}
                    />
                    <Button
                      type="text"
                      size="small"
                      icon={<ArrowDownOutlined />}
                      disabled={i === value.length - 1}
                      onClick={() => move(i, i + 1)}
                      aria-label={t('materials.down')}
                    />
                  </>
                )}
                <Button
                  type="text"
                  size="small"
                  danger
                  icon={<DeleteOutlined />}
                  onClick={() => onCommit(value.filter((_, j) => j !== i))}
                  aria-label={t('materials.remove')}
                />
              </li>
            );
          })}
        </ol>
      )}
      <Button
        size="small"
        icon={<FolderOpenOutlined />}
        disabled={full}
        onClick={() => {
          setPickerUsed(true);
          setPicking(true);
        }}
        data-testid={`le-material-pick-${kind}`}
      >
        {single && value.length > 0 ? t('materials.replace') : t('materials.pick')}
      </Button>
      {full ? (
        <Typography.Text type="secondary" className="mq-le-hint">
          {t('materials.full', { max: LAYOUT_LIMITS.maxPlaylistItems })}
        </Typography.Text>
      ) : null}
      {picker ? (
        <picker.MaterialPicker
          open={picking}
          kind={kind}
          max={Math.max(room, 1)}
          onClose={() => setPicking(false)}
          onPick={(chosen) => {
            remember(Object.fromEntries(chosen.map((m) => [m.id, picker.renderMaterialOf(m)])));
            const items = chosen.map((m) => ({
              materialId: m.id,
              // A video plays its length; a picture or a track starts at 10 s.
              duration: Math.min(LAYOUT_LIMITS.maxPageDuration, Math.max(1, Math.round(m.duration ?? 10))),
            }));
            onCommit(single ? items.slice(0, 1) : [...value, ...items]);
          }}
        />
      ) : null}
    </div>
  );
}
