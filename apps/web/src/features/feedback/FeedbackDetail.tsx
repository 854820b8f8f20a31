import { type FeedbackItem, formatTime } from '@marquee/protocol';
import {
  Alert,
  Button,
  Descriptions,
  Drawer,
  Empty,
  Image,
  Input,
  Modal,
  Popconfirm,
  Space,
  Spin,
  Tag,
  Typography,
} from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useCallMutation, useCallQuery } from '../../api/queries';
import { confirmOkProps } from '../../components/ConfirmAction';

export const STATE_COLOR: Record<FeedbackItem['state'], string> = {
  submitted: 'processing',
  replied: 'success',
  closed: 'default',
};

export function StateTag({ state }: { state: FeedbackItem['state'] }) {
  const { t } = useTranslation('feedback');
  return (
    <Tag color={STATE_COLOR[state]} data-testid={`feedback-state-${state}`}>
      {t(`state.${state}`)}
    </Tag>
  );
}

/**
 * One feedback with its screenshots and the reply. `manage`: the platform operator's view
 * (reply, close); otherwise the author's (close).
 */
export function FeedbackDetail({ id, manage, onClose }: { id: string | null; manage: boolean; onClose: () => void }) {
  const { t } = useTranslation(['feedback', 'common']);
  const info = useCallQuery(manage ? 'feedbackManageInfo' : 'feedbackInfo', { id: id ?? '' }, { enabled: Boolean(id) });
  const close = useCallMutation(manage ? 'feedbackManageClose' : 'feedbackClose', { success: t('toast.closed') });
  const reply = useCallMutation('feedbackReply', { success: t('toast.replied') });
  const [replying, setReplying] = useState(false);
  const [text, setText] = useState('');
  const fb = info.data?.feedback;

  return (
    <Drawer open={Boolean(id)} onClose={onClose} width={560} title={t('detail.title')} data-testid="feedback-detail">
      {info.isLoading ? (
        <Spin />
      ) : info.isError || !fb ? (
        <Empty description={t('detail.error')} />
      ) : (
        <Space direction="vertical" style={{ width: '100%' }} size="middle">
          <Descriptions column={1} size="small" bordered>
            <Descriptions.Item label={t('field.state')}>
              <StateTag state={fb.state} />
            </Descriptions.Item>
            <Descriptions.Item label={t('field.category')}>{t(`category.${fb.category}`)}</Descriptions.Item>
            {manage && (
              <Descriptions.Item label={t('field.author')}>
                {fb.authorName} · {fb.entName}
              </Descriptions.Item>
            )}
            <Descriptions.Item label={t('field.createdAt')}>{formatTime(fb.createdAt)}</Descriptions.Item>
            <Descriptions.Item label={t('field.content')}>
              <Typography.Paragraph style={{ whiteSpace: 'pre-wrap', margin: 0 }} data-testid="feedback-detail-content">
                {fb.content}
              </Typography.Paragraph>
            </Descriptions.Item>
          </Descriptions>
          <div>
            <Typography.Title level={5}>{t('detail.shots')}</Typography.Title>
            {(info.data?.shots ?? []).length === 0 ? (
              <Typography.Text type="secondary">{t('detail.noShots')}</Typography.Text>
            ) : (
              <Image.PreviewGroup>
                <Space wrap>
                  {(info.data?.shots ?? []).map((s) =>
                    s.url ? (
                      <Image
                        key={s.id}
                        src={s.url}
                        width={120}
                        height={90}
                        style={{ objectFit: 'cover' }}
                        data-testid="feedback-detail-shot"
                      />
                    ) : null,
                  )}
                </Space>
              </Image.PreviewGroup>
            )}
          </div>
          <div>
            <Typography.Title level={5}>{t('detail.reply')}</Typography.Title>
            {fb.reply ? (
              <Alert
                type="success"
                message={
                  <span style={{ whiteSpace: 'pre-wrap' }} data-testid="feedback-detail-reply">
                    {fb.reply}
                  </span>
                }
                description={fb.repliedAt ? formatTime(fb.repliedAt) : undefined}
              />
            ) : (
              <Typography.Text type="secondary">{t('detail.noReply')}</Typography.Text>
            )}
          </div>
          {fb.state !== 'closed' && (
            <Space>
              {manage && (
                <Button type="primary" onClick={() => setReplying(true)} data-testid="feedback-reply-open">
                  {fb.reply ? t('detail.replyAgain') : t('detail.replyAction')}
                </Button>
              )}
              <Popconfirm
                title={t('detail.closeConfirm')}
                okText={t('detail.closeAction')}
                cancelText={t('action.cancel', { ns: 'common' })}
                okButtonProps={confirmOkProps(true)}
                onConfirm={() => close.mutateAsync({ id: fb.id })}
              >
                <Button danger data-testid="feedback-close">
                  {t('detail.closeAction')}
                </Button>
              </Popconfirm>
            </Space>
          )}
        </Space>
      )}
      <Modal
        open={replying}
        title={t('reply.title')}
        okText={t('reply.ok')}
        cancelText={t('action.cancel', { ns: 'common' })}
        okButtonProps={{ disabled: !text.trim(), loading: reply.isPending, 'data-testid': 'feedback-reply-ok' }}
        onOk={async () => {
          if (!fb) return;
          await reply.mutateAsync({ id: fb.id, reply: text.trim() });
          setReplying(false);
          setText('');
        }}
        onCancel={() => setReplying(false)}
        destroyOnHidden
      >
        <Input.TextArea
          rows={5}
          maxLength={1000}
          showCount
          value={text}
          onChange={(e) => setText(e.target.value)}
          placeholder={t('reply.placeholder')}
          data-testid="feedback-reply-text"
        />
        <Typography.Text type="secondary">{t('reply.hint')}</Typography.Text>
      </Modal>
    </Drawer>
  );
}
