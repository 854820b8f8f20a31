import { COMPONENT_TYPES } from '@marquee/layout';
import { Tooltip } from 'antd';
import { useTranslation } from 'react-i18next';
import { PALETTE_MIME } from './Canvas';
import { TYPE_ICONS } from './typeIcons';
import type { EditorDispatch } from './useEditor';

/** The 14 component types: a click places one in the middle of the page, a drag places it where it is dropped. */
export function Palette({ dispatch }: { dispatch: EditorDispatch }) {
  const { t } = useTranslation('layoutEditor');
  return (
    <div className="mq-le-palette" data-testid="le-palette">
      {COMPONENT_TYPES.map((type) => (
        <Tooltip key={type} title={t('palette.hint')} mouseEnterDelay={0.8}>
          <button
            type="button"
            className="mq-le-palette-item"
            draggable
            data-testid={`le-palette-${type}`}
            onDragStart={(e) => {
              e.dataTransfer.setData(PALETTE_MIME, type);
              e.dataTransfer.effectAllowed = 'copy';
            }}
            onClick={() => dispatch({ type: 'add', componentType: type })}
          >
            <span className="mq-le-palette-icon">{TYPE_ICONS[type]}</span>
            <span className="mq-le-palette-label">{t(`type.${type}`)}</span>
          </button>
        </Tooltip>
      ))}
    </div>
  );
}
