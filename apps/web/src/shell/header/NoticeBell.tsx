import { BellOutlined } from '@ant-design/icons';
import { type Notice, Perm } from '@marquee/protocol';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { App, Badge, Button, Dropdown, Empty, Modal, Spin, Tag, theme } from 'antd';
import dayjs from 'dayjs';
import DOMPurify from 'dompurify';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../../api/client';
import { useCan } from '../useCan';
import { shellKeys, useNotices } from './queries';

/** Spec section 9: the notice detail dialog is 960 px wide. */
export const NOTICE_DIALOG_WIDTH = 960;

/** A notice that asks the user to agree to or refuse a monitor application. */
export function isPendingMonitorApply(notice: Pick<Notice, 'type' | 'monitorStatus'>): boolean {
  return notice.type === 'system' && notice.monitorStatus === 'pending';
}

/** Notice HTML as it may be shown: DOMPurify-sanitised (no scripts, handlers, styles or forms). */
export function sanitizeNoticeHtml(html: string): string {
  return DOMPurify.sanitize(html, { USE_PROFILES: { html: true }, FORBID_TAGS: ['style', 'form'] });
}

function formatTime(value: string): string {
  const d = dayjs(value);
  return d.isValid() ? d.format('YYYY-MM-DD HH:mm') : value;
}

function NoticeDialog({ notice, open, onClose }: { notice: Notice | null; open: boolean; onClose: () => void }) {
  const { t } = useTranslation('shell');
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const can = useCan();
  const html = useMemo(() => (notice ? sanitizeNoticeHtml(notice.content) : ''), [notice]);

  const apply = useMutation({
    mutationFn: (status: 0 | 1) => call('monitorApply', { noticeId: notice?.id ?? '', status }),
    onSuccess: async () => {
      message.success(t('notice.success'));
      await queryClient.invalidateQueries({ queryKey: shellKeys.notices });
      onClose();
    },
  });

  const pending = notice ? isPendingMonitorApply(notice) && can(Perm.notice) : false;
  const decided = notice?.type === 'system' ? notice.monitorStatus : null;

  return (
    <Modal
      open={open}
      width={NOTICE_DIALOG_WIDTH}
      title={notice?.title}
      onCancel={onClose}
      destroyOnHidden
      footer={
        pending ? (
          <>
            <Button
              danger
              data-testid="notice-refuse"
              loading={apply.isPending && apply.variables === 0}
              disabled={apply.isPending}
              onClick={() => apply.mutate(0)}
            >
              {t('notice.refuse')}
            </Button>
            <Button
              type="primary"
              data-testid="notice-agree"
              loading={apply.isPending && apply.variables === 1}
              disabled={apply.isPending}
              onClick={() => apply.mutate(1)}
            >
              {t('notice.agree')}
            </Button>
          </>
        ) : (
          <Button onClick={onClose}>{t('dialog.close')}</Button>
        )
      }
    >
      {notice && (
        <div data-testid="notice-dialog">
          <div className="mq-notice-meta">
            {notice.type === 'system' && <Tag color="blue">{t('notice.system')}</Tag>}
            {decided === 'agreed' && <Tag color="success">{t('notice.agreed')}</Tag>}
            {decided === 'refused' && <Tag color="error">{t('notice.refused')}</Tag>}
            <span>{formatTime(notice.createdAt)}</span>
          </div>
          <div
            className="mq-notice-content"
            data-testid="notice-content"
            // Sanitised with DOMPurify just above.
            // biome-ignore lint/security/noDangerouslySetInnerHtml: sanitised notice HTML
            dangerouslySetInnerHTML={{ __html: html }}
          />
        </div>
      )}
    </Modal>
  );
}

/**
 * The notice bell (spec section 2 "Header"): a badge with the count, a dropdown of titles,
 * and the detail dialog with the monitor-application answer for pending system notices.
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
          if (next) void refetch();
        }}
        popupRender={() => panel}
      >
        <button type="button" className="mq-header-icon" aria-label={t('notice.title')} data-testid="notice-bell">
          <Badge count={total} size="small" overflowCount={99}>
            <BellOutlined />
          </Badge>
        </button>
      </Dropdown>
      <NoticeDialog notice={current} open={dialogOpen} onClose={() => setDialogOpen(false)} />
    </>
  );
}
