import { BellOutlined } from '@ant-design/icons';
import { formatTime, type Notice } from '@marquee/protocol';
import { Badge, Dropdown, Empty, Spin, theme } from 'antd';
import type { TFunction } from 'i18next';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isPendingMonitorApply } from './notice';
import { useNotices } from './queries';

// The dialog and DOMPurify load with the first notice the user opens; opening the bell's
// panel starts the download, so the dialog is usually there before a notice is clicked.
const loadNoticeDialog = () => import('./NoticeDialog');
const NoticeDialog = lazy(loadNoticeDialog);

/** The badge's largest number; above it the badge shows '99+'. */
const BADGE_MAX = 99;

/**
 * The bell's accessible name: it contains the count the badge shows (WCAG 2.5.3, axe's
 * label-content-name-mismatch), as a word of its own ('3 notices', '99+ 条通知'); the title
 * alone when the badge shows nothing.
 */
export function bellLabel(t: TFunction, total: number): string {
  if (total <= 0) return t('notice.title');
  return t('notice.bell', { count: total, shown: total > BADGE_MAX ? `${BADGE_MAX}+` : String(total) });
}

/**
 * The notice bell (spec section 2 "Header"): a badge with the count, a dropdown of titles,
 * and the detail dialog (NoticeDialog) with the monitor-application answer for pending
 * system notices.
 */
export default function NoticeBell() {
  const { t } = useTranslation('shell');
  const { data, isLoading, refetch } = useNotices();
  const [open, setOpen] = useState(false);
  const [current, setCurrent] = useState<Notice | null>(null);
  // Kept apart from `current` so the dialog keeps its content during the closing animation.
  const [dialogOpen, setDialogOpen] = useState(false);
  const { token } = theme.useToken();
  const notices = data?.data ?? [];
  const total = data?.total ?? notices.length;

  const panel = (
    <div
      className="mq-notice-panel"
      data-testid="notice-panel"
      style={{
        background: token.colorBgElevated,
        color: token.colorText,
        borderRadius: token.borderRadiusLG,
        boxShadow: token.boxShadowSecondary,
      }}
    >
      <div className="mq-notice-panel-head" style={{ borderBottom: `1px solid ${token.colorBorderSecondary}` }}>
        <span>{t('notice.title')}</span>
        <span className="mq-muted">{t('notice.total', { count: total })}</span>
      </div>
      {isLoading ? (
        <div className="mq-notice-empty">
          <Spin size="small" />
        </div>
      ) : notices.length === 0 ? (
        <Empty className="mq-notice-empty" image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('notice.empty')} />
      ) : (
        <ul className="mq-notice-list">
          {notices.map((notice) => (
            <li key={notice.id}>
              <button
                type="button"
                className="mq-notice-item"
                data-testid={`notice-item-${notice.id}`}
                onClick={() => {
                  setOpen(false);
                  setCurrent(notice);
                  setDialogOpen(true);
                }}
              >
                <span className="mq-notice-item-title">
                  {isPendingMonitorApply(notice) && <span className="mq-notice-pending" />}
                  {notice.title}
                </span>
                <span className="mq-notice-item-time">{formatTime(notice.createdAt)}</span>
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );

  return (
    <>
      <Dropdown
        trigger={['click']}
        placement="bottomRight"
        open={open}
        onOpenChange={(next) => {
          setOpen(next);
          if (next) {
            void refetch();
            void loadNoticeDialog();
          }
        }}
        popupRender={() => panel}
      >
        <button type="button" className="mq-header-icon" aria-label={bellLabel(t, total)} data-testid="notice-bell">
          <Badge count={total} size="small" overflowCount={BADGE_MAX}>
            <BellOutlined />
          </Badge>
        </button>
      </Dropdown>
      {current ? (
        <Suspense fallback={null}>
          <NoticeDialog notice={current} open={dialogOpen} onClose={() => setDialogOpen(false)} />
        </Suspense>
      ) : null}
    </>
  );
}
