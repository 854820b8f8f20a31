import { CheckCircleFilled } from '@ant-design/icons';
import { App, Card, Col, Row, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { SKIN_TOKENS, SKINS, type Skin } from '../../components/skins';
import { useSession } from '../../session/session';

function SkinPreview({ skin }: { skin: Skin }) {
  const { t } = useTranslation('pages');
  const tokens = SKIN_TOKENS[skin];
  return (
    <div className="mq-skin-preview" style={{ background: tokens.background }} aria-hidden>
      <div className="mq-skin-preview-menu" style={{ background: tokens.menuBackground, color: tokens.menuText }}>
        <span style={{ background: tokens.primary }} />
        <small>{t('skin.preview.menu')}</small>
      </div>
      <div className="mq-skin-preview-main">
        <div className="mq-skin-preview-header" style={{ background: tokens.container }} />
        <div className="mq-skin-preview-content" style={{ background: tokens.container, color: tokens.primary }}>
          <i style={{ background: tokens.primary }} />
          <small style={{ color: tokens.dark ? 'rgba(255,255,255,.65)' : 'rgba(0,0,0,.62)' }}>
            {t('skin.preview.content')}
          </small>
        </div>
      </div>
    </div>
  );
}

/** The skin page (route `/skin`): skins 1-4 with previews; the choice applies at once and stays in the session. */
export default function SkinPage() {
  const { t } = useTranslation('pages');
  const { message } = App.useApp();
  const current = useSession((s) => s.skin);
  const setSkin = useSession((s) => s.setSkin);

  const choose = (skin: Skin) => {
    if (skin === current) return;
    setSkin(skin);
    message.success(t('skin.changed'));
  };

  return (
    <div className="mq-view mq-skin" data-testid="skin-page">
      <Typography.Title level={3}>{t('skin.title')}</Typography.Title>
      <Typography.Paragraph type="secondary">{t('skin.description')}</Typography.Paragraph>
      <Row gutter={[16, 16]} role="radiogroup" aria-label={t('skin.title')}>
        {SKINS.map((skin) => {
          const selected = skin === current;
          const name = t(SKIN_TOKENS[skin].name);
          return (
            <Col key={skin} xs={24} sm={12} xl={6}>
              <Card
                hoverable
                className={selected ? 'mq-skin-card mq-skin-card-selected' : 'mq-skin-card'}
                role="radio"
                aria-checked={selected}
                aria-label={name}
                tabIndex={0}
                data-testid={`skin-option-${skin}`}
                onClick={() => choose(skin)}
                onKeyDown={(event) => {
                  if (event.key === 'Enter' || event.key === ' ') {
                    event.preventDefault();
                    choose(skin);
                  }
                }}
                cover={<SkinPreview skin={skin} />}
              >
                <Card.Meta
                  title={
                    <span className="mq-skin-name">
                      {name}
                      {selected ? (
                        <span className="mq-skin-current">
                          <CheckCircleFilled /> {t('skin.current')}
                        </span>
                      ) : null}
                    </span>
                  }
                  // The title already says 'current' (issue 25: it was said twice).
                  description={selected ? t('skin.inUse') : t('skin.use')}
                />
              </Card>
            </Col>
          );
        })}
      </Row>
    </div>
  );
}
