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
import { Button, Empty, Tooltip } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { byZ, currentPage, type EditorState } from './state/editorState';
import { TYPE_ICONS } from './typeIcons';
import type { EditorDispatch } from './useEditor';

/** The current page's components, top first: select, hide, lock, and the z-order. */
export function LayersPanel({ state, dispatch }: { state: EditorState; dispatch: EditorDispatch }) {
  const { t } = useTranslation('layoutEditor');
  const page = currentPage(state);
  const rows = useMemo(() => byZ(page.components).reverse(), [page.components]);
  const selectedId = state.selectedId;
  return (
    <div className="mq-le-layers" data-testid="le-layers">
      <div className="mq-le-layers-tools">
        <Tooltip title={t('z.front')}>
          <Button
            size="small"
            icon={<VerticalAlignTopOutlined />}
            onClick={() => dispatch({ type: 'zOrder', move: 'front' })}
            data-testid="le-z-front"
            aria-label={t('z.front')}
          />
        </Tooltip>
        <Tooltip title={t('z.forward')}>
          <Button
            size="small"
            icon={<ArrowUpOutlined />}
            onClick={() => dispatch({ type: 'zOrder', move: 'forward' })}
            data-testid="le-z-forward"
            aria-label={t('z.forward')}
          />
        </Tooltip>
        <Tooltip title={t('z.backward')}>
          <Button
            size="small"
            icon={<ArrowDownOutlined />}
            onClick={() => dispatch({ type: 'zOrder', move: 'backward' })}
            data-testid="le-z-backward"
            aria-label={t('z.backward')}
          />
        </Tooltip>
        <Tooltip title={t('z.back')}>
          <Button
            size="small"
            icon={<VerticalAlignBottomOutlined />}
            onClick={() => dispatch({ type: 'zOrder', move: 'back' })}
            data-testid="le-z-back"
            aria-label={t('z.back')}
          />
        </Tooltip>
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
              <Tooltip title={c.hidden ? t('layers.show') : t('layers.hide')}>
                <Button
                  type="text"
                  size="small"
                  icon={c.hidden ? <EyeInvisibleOutlined /> : <EyeOutlined />}
                  aria-label={c.hidden ? t('layers.show') : t('layers.hide')}
                  data-testid={`le-layer-hide-${c.id}`}
                  onClick={() => dispatch({ type: 'setHidden', id: c.id, hidden: !c.hidden })}
                />
              </Tooltip>
              <Tooltip title={c.locked ? t('layers.unlock') : t('layers.lock')}>
                <Button
                  type="text"
                  size="small"
                  icon={c.locked ? <LockOutlined /> : <UnlockOutlined />}
                  aria-label={c.locked ? t('layers.unlock') : t('layers.lock')}
                  data-testid={`le-layer-lock-${c.id}`}
                  onClick={() => dispatch({ type: 'setLocked', id: c.id, locked: !c.locked })}
                />
              </Tooltip>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
