import {
  ArrowDownOutlined,
  ArrowUpOutlined,
  EyeInvisibleOutlined,
  EyeOutlined,
  LockOutlined,
  UnlockOutlined,
  VerticalAlignBottomOutlined,
  VerticalAlignTopOutlined,
} from '@ant-design/icons';
import { Empty } from 'antd';
import { type ReactNode, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { TipButton } from '../../components/TipButton';
import { byZ, currentPage, type EditorState, type ZOrderMove } from './state/editorState';
import { TYPE_ICONS } from './typeIcons';
import type { EditorDispatch } from './useEditor';

/** The z-order buttons, in the toolbar's order. */
const Z_MOVES: { move: ZOrderMove; icon: ReactNode }[] = [
  { move: 'front', icon: <VerticalAlignTopOutlined /> },
  { move: 'forward', icon: <ArrowUpOutlined /> },
  { move: 'backward', icon: <ArrowDownOutlined /> },
  { move: 'back', icon: <VerticalAlignBottomOutlined /> },
];

/** The current page's components, top first: select, hide, lock, and the z-order. */
export function LayersPanel({ state, dispatch }: { state: EditorState; dispatch: EditorDispatch }) {
  const { t } = useTranslation('layoutEditor');
  const page = currentPage(state);
  const rows = useMemo(() => byZ(page.components).reverse(), [page.components]);
  const selectedId = state.selectedId;
  return (
    <div className="mq-le-layers" data-testid="le-layers">
      <div className="mq-le-layers-tools">
        {Z_MOVES.map(({ move, icon }) => (
          <TipButton
            key={move}
            label={t(`z.${move}`)}
            size="small"
            icon={icon}
            onClick={() => dispatch({ type: 'zOrder', move })}
            testId={`le-z-${move}`}
          />
        ))}
      </div>
      {rows.length === 0 ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('layers.empty')} />
      ) : (
        <ul className="mq-le-layer-list">
          {rows.map((c) => (
            <li
              key={c.id}
              className={`mq-le-layer${c.id === selectedId ? ' is-selected' : ''}${c.hidden ? ' is-hidden' : ''}`}
              data-testid={`le-layer-${c.type}`}
            >
              <button type="button" className="mq-le-layer-name" onClick={() => dispatch({ type: 'select', id: c.id })}>
                <span className="mq-le-layer-icon">{TYPE_ICONS[c.type]}</span>
                <span className="mq-le-layer-text">{c.name || t(`type.${c.type}`)}</span>
              </button>
              <TipButton
                label={c.hidden ? t('layers.show') : t('layers.hide')}
                type="text"
                size="small"
                icon={c.hidden ? <EyeInvisibleOutlined /> : <EyeOutlined />}
                testId={`le-layer-hide-${c.id}`}
                onClick={() => dispatch({ type: 'setHidden', id: c.id, hidden: !c.hidden })}
              />
              <TipButton
                label={c.locked ? t('layers.unlock') : t('layers.lock')}
                type="text"
                size="small"
                icon={c.locked ? <LockOutlined /> : <UnlockOutlined />}
                testId={`le-layer-lock-${c.id}`}
                onClick={() => dispatch({ type: 'setLocked', id: c.id, locked: !c.locked })}
              />
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
