import { config } from "@/lib/kernel/config/config";
import { ctfdClient } from "@/lib/ctf/hosting/ctfd-client";
import { HostError } from "@/lib/ctf/hosting";

/**
 * An announcement handed on to the configured CTFd instance as a notification
 * (`POST /api/v1/notifications`, CTFd renders its content as Markdown): players on CTFd see it
 * as a toast and in its Notifications page. Only posting: CTFd's id is not kept, so deleting
 * an announcement here leaves CTFd's notification in place.
 */
export async function postCtfdNotification(announcement: { title: string; body: string }): Promise<void> {
  const ctfd = config().ctfd;
  if (!ctfd) throw new HostError("CTFD_URL and CTFD_TOKEN are not configured.");
  await ctfdClient(ctfd).request("POST", "/notifications", { title: announcement.title, content: announcement.body, type: "toast", sound: true });
}
