import { MessageOutlined } from '@ant-design/icons';
import { formatTime, Perm } from '@marquee/protocol';
import { Button, Card, Col, Empty, Row, Skeleton, Statistic, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useCallQuery } from '../../api/queries';
import { useCan } from '../../session/useCan';
import { SectionOverview } from '../home/SectionOverview';

/**
 * /help: the help section's overview (issue 31): its figures (published help documents) and
 * pages (downloads, help documents) as /operate and /report show theirs, and the reader's own
 * feedback (/my/help): how many wait or were answered, and the last reply.
 */
export default function HelpPage() {
  const can = useCan();
  return (
    <SectionOverview root="/help" name="help">
      {can(Perm.my) ? <MyFeedback /> : null}
    </SectionOverview>
  );
}

function MyFeedback() {
  const { t } = useTranslation(['help', 'pages']);
  const waiting = useCallQuery('feedbackMine', { page: 1, size: 10, state: 'submitted' }, { silent: true });
  const replied = useCallQuery('feedbackMine', { page: 1, size: 10, state: 'replied' }, { silent: true });
  const last = replied.data?.data[0];
  return (
    <>
      <h4 className="mq-home-heading mq-home-sections-title">{t('overview.feedback.title')}</h4>
      <Card size="small" data-testid="section-help-feedback">
        {waiting.isPending || replied.isPending ? (
          <Skeleton active paragraph={{ rows: 2 }} title={false} />
        ) : waiting.isError || replied.isError ? (
          <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('overview.feedback.error')} />
        ) : (
          <Row gutter={[24, 16]} align="middle">
            <Col xs={12} md={6}>
              <Statistic title={t('overview.feedback.waiting')} value={waiting.data?.total ?? 0} />
            </Col>
            <Col xs={12} md={6}>
              <Statistic title={t('overview.feedback.replied')} value={replied.data?.total ?? 0} />
            </Col>
            <Col xs={24} md={12}>
              {last?.reply ? (
                <div data-testid="section-help-last-reply">
                  <Typography.Text type="secondary">
                    {t('overview.feedback.lastReply', { time: formatTime(last.repliedAt ?? last.createdAt) })}
                  </Typography.Text>
                  <Typography.Paragraph ellipsis={{ rows: 2 }} style={{ margin: 0 }}>
                    {last.reply}
                  </Typography.Paragraph>
                </div>
              ) : (
                <Typography.Text type="secondary">{t('overview.feedback.noReply')}</Typography.Text>
              )}
            </Col>
            <Col xs={24}>
              <Link to="/my/help">
                <Button icon={<MessageOutlined />}>{t('overview.feedback.open')}</Button>
              </Link>
            </Col>
          </Row>
        )}
      </Card>
    </>
  );
}
