import { formatTime, type Notice, Perm } from '@marquee/protocol';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { App, Button, Modal, Tag } from 'antd';
import DOMPurify from 'dompurify';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../../api/client';
import { useCan } from '../../session/useCan';
import { isPendingMonitorApply } from './notice';
import { shellKeys } from './queries';

/** Spec section 9: the notice detail dialog is 960 px wide. */
export const NOTICE_DIALOG_WIDTH = 960;

/** Notice HTML as it may be shown: DOMPurify-sanitised (no scripts, handlers, styles or forms). */
export function sanitizeNoticeHtml(html: string): string {
  return DOMPurify.sanitize(html, { USE_PROFILES: { html: true }, FORBID_TAGS: ['style', 'form'] });
}

/**
 * The notice detail dialog, with the monitor-application answer for pending system notices.
 * The bell loads this module (and DOMPurify with it) only when a notice is about to be read.
 */
export default function NoticeDialog({
  notice,
  open,
  onClose,
}: {
  notice: Notice | null;
  open: boolean;
  onClose: () => void;
}) {
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
