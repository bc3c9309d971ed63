import { EntityList } from '@/engine/pages/EntityList';
import type { EnginePageProps } from '@/engine/resource';
import { PosterCard } from './PosterCard';

/** 营销图库 (serviceCenter/marketingGallery/index): the generated posters above the materials' generic list. */
export default function GalleryPage({ resource }: EnginePageProps) {
  return (
    <>
      <PosterCard />
      <EntityList resource={resource} />
    </>
  );
}
