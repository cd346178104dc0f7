import { useQuery } from '@tanstack/react-query';
import { apiJson } from '../../lib/api-client.ts';

/** The code renderer's languages and themes (GET /api/code-to-img/languages), vs2015 first among themes. */
export function useCodeCatalog(enabled: boolean) {
  return useQuery({
    queryKey: ['code-catalog'],
    enabled,
    staleTime: Number.POSITIVE_INFINITY,
    queryFn: async () => {
      const answer = await apiJson<{ data?: { languages?: string[]; themes?: string[] }; languages?: string[]; themes?: string[] }>(
        '/api/code-to-img/languages',
        { anonymous: true },
      );
      const data = answer.data ?? answer;
      return { languages: data.languages ?? [], themes: ['vs2015', ...(data.themes ?? []).filter((theme) => theme !== 'vs2015')] };
    },
  });
}
