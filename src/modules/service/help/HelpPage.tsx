import { Drawer, Spin, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { type HelpArticle, readHelp } from '@/api/service';
import { EntityList } from '@/engine/pages/EntityList';
import type { EnginePageProps } from '@/engine/resource';
import { formatTime } from '../shared/WorkOrderParts';
import { openHelp, useOpenHelp } from './helpReader';

/**
 * 帮助指南 (serviceCenter/helpGuide/index): the searchable article list (title / keywords / category) and a reading
 * drawer. The article's HTML was cleaned by the server when it was saved (sanitize-html allow-list, docs/schemas.md).
 */
export default function HelpPage({ resource }: EnginePageProps) {
  const helpId = useOpenHelp();
  const [article, setArticle] = useState<HelpArticle | null>(null);
  useEffect(() => {
    setArticle(null);
    if (helpId == null) return;
    readHelp(helpId)
      .then(setArticle)
      .catch(() => openHelp(null));
  }, [helpId]);
  return (
    <>
      <EntityList resource={resource} />
      <Drawer title={article?.title ?? '帮助指南'} width={720} open={helpId != null} onClose={() => openHelp(null)} destroyOnHidden>
        {!article ? (
          <Spin />
        ) : (
          <>
            <Typography.Text type="secondary">
              更新于 {formatTime(article.updateTime ?? article.createTime)} · 阅读 {article.viewCount} 次
            </Typography.Text>
            {/* Sanitised on the server when saved (rich text allow-list). */}
            <div className="help-article" style={{ marginTop: 16, lineHeight: 1.8 }} dangerouslySetInnerHTML={{ __html: article.content }} />
          </>
        )}
      </Drawer>
    </>
  );
}
