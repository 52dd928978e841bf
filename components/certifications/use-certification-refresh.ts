import { useQueryClient } from "@tanstack/react-query";
import { queryKeys } from "@/components/query-keys";

/** Invalidates everything that shows this certification's fields, domains or questions. */
export function useCertificationRefresh(id: number) {
  const client = useQueryClient();
  return () => {
    client.invalidateQueries({ queryKey: queryKeys.ownCertification(id) });
    client.invalidateQueries({ queryKey: queryKeys.certificationLists() });
    client.invalidateQueries({ queryKey: queryKeys.certification(id) });
  };
}
