import type { TemplateView } from '@render/contracts';
import type { TemplateViewRow } from '@render/db';

export function toTemplateView(row: TemplateViewRow, viewerId: string | null): TemplateView {
  return {
    id: row.id,
    name: row.name,
    width: row.width,
    height: row.height,
    svg: row.svg,
    variables: row.variables,
    variablesCount: row.variables.length,
    creatorName: row.creator_name,
    isPublic: row.is_public,
    isOwner: row.user_id === viewerId,
    starCount: row.star_count,
    isStarred: row.is_starred,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}
