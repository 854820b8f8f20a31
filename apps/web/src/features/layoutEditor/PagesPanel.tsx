import { ArrowLeftOutlined, ArrowRightOutlined, CopyOutlined, DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { Button, Popconfirm } from 'antd';
import { useTranslation } from 'react-i18next';
import { confirmOkProps } from '../../components/ConfirmAction';
import { TipButton } from '../../components/TipButton';
import type { EditorState } from './state/editorState';
import type { EditorDispatch } from './useEditor';

/** The layout's pages in play order: select, add, duplicate, reorder, delete (a layout keeps one). */
export function PagesPanel({ state, dispatch }: { state: EditorState; dispatch: EditorDispatch }) {
  const { t } = useTranslation('layoutEditor');
  const pages = state.doc.pages;
  const index = pages.findIndex((p) => p.id === state.pageId);
  return (
    <div className="mq-le-pages" data-testid="le-pages">
      <div className="mq-le-pages-tools">
        <span className="mq-le-pages-title">{t('pages.title', { count: pages.length })}</span>
        <TipButton
          label={t('pages.add')}
          size="small"
          icon={<PlusOutlined />}
          onClick={() => dispatch({ type: 'addPage' })}
          testId="le-page-add"
        />
        <TipButton
          label={t('pages.duplicate')}
          size="small"
          icon={<CopyOutlined />}
          onClick={() => dispatch({ type: 'duplicatePage' })}
          testId="le-page-duplicate"
        />
        <TipButton
          label={t('pages.moveEarlier')}
          size="small"
          icon={<ArrowLeftOutlined />}
          disabled={index <= 0}
          onClick={() => dispatch({ type: 'movePage', from: index, to: index - 1 })}
          testId="le-page-earlier"
        />
        <TipButton
          label={t('pages.moveLater')}
          size="small"
          icon={<ArrowRightOutlined />}
          disabled={index < 0 || index >= pages.length - 1}
          onClick={() => dispatch({ type: 'movePage', from: index, to: index + 1 })}
          testId="le-page-later"
        />
        <Popconfirm
          title={t('pages.deleteConfirm')}
          okText={t('pages.delete')}
          cancelText={t('cancel')}
          okButtonProps={confirmOkProps(true)}
          onConfirm={() => dispatch({ type: 'deletePage' })}
        >
          <Button
            size="small"
            danger
            icon={<DeleteOutlined />}
            data-testid="le-page-delete"
            aria-label={t('pages.delete')}
          />
        </Popconfirm>
      </div>
      <ol className="mq-le-page-list">
        {pages.map((p, i) => (
          <li key={p.id}>
            <button
              type="button"
              className={`mq-le-page${p.id === state.pageId ? ' is-current' : ''}`}
              onClick={() => dispatch({ type: 'selectPage', pageId: p.id })}
              data-testid={`le-page-${i + 1}`}
              aria-current={p.id === state.pageId ? 'page' : undefined}
            >
              <span className="mq-le-page-no">{i + 1}</span>
              <span className="mq-le-page-name">{p.name || t('pages.untitled', { n: i + 1 })}</span>
              <span className="mq-le-page-meta">
                {t('pages.summary', { count: p.components.length, seconds: p.duration })}
              </span>
            </button>
          </li>
        ))}
      </ol>
    </div>
  );
}
