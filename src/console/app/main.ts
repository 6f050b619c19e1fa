/**
 * The web console's entry: connects an A2AClient (a2a-edge/client) to the agent that served the page,
 * through a fetch that records everything for the raw view, and wires the four tabs together.
 */
import type { A2AClient } from "../../client/index";
import { renderCard } from "./card-view";
import { ChatView } from "./chat";
import { ConnectionForm } from "./connection";
import { byId, errorText, fill, h } from "./dom";
import { RawView } from "./raw-view";
import { RawLog, recordingFetch } from "./recorder";
import { TasksView } from "./tasks";

type Tab = "chat" | "tasks" | "card" | "raw";

const log = new RawLog();
const connection = new ConnectionForm(() => void connect());
const fetcher = recordingFetch(log, () => connection.secrets());
const status = byId("connection");
let client: A2AClient | undefined;

function showTab(tab: Tab): void {
  for (const button of document.querySelectorAll<HTMLButtonElement>("#tabs button")) {
    const active = button.dataset.tab === tab;
    button.classList.toggle("active", active);
    button.setAttribute("aria-selected", String(active));
  }
  for (const section of document.querySelectorAll<HTMLElement>("main > .tab")) section.hidden = section.id !== `tab-${tab}`;
  if (tab === "tasks") void tasks.refresh();
}

const chat = new ChatView(byId("tab-chat"), {
  onTurnEnded: () => {
    if (!byId("tab-tasks").hidden) void tasks.refresh();
  },
});
const tasks = new TasksView(byId("tab-tasks"), {
  onContinue: (task) => {
    showTab("chat");
    chat.continueTask(task);
  },
});
new RawView(byId("tab-raw"), log, byId("raw-count"));
byId("credentials-slot").replaceWith(connection.element);
for (const button of document.querySelectorAll<HTMLButtonElement>("#tabs button")) {
  button.addEventListener("click", () => showTab(button.dataset.tab as Tab));
}

async function connect(): Promise<void> {
  status.textContent = "connecting…";
  status.className = "muted";
  try {
    client = await connection.connect(fetcher);
  } catch (error) {
    status.textContent = `cannot read the Agent Card: ${errorText(error)}`;
    status.className = "error";
    return;
  }
  const card = client.card;
  document.title = `${card.name} · a2a-edge console`;
  byId("agent-name").textContent = card.name;
  status.textContent = `${client.binding} · ${connection.describe()}${client.tenant ? ` · tenant ${client.tenant}` : ""}${client.streaming ? "" : " · polling (the agent does not stream)"}`;
  status.className = "muted";
  fill(byId("tab-card"), renderCard(card, {
    inUse: client.interface,
    onExample: (text) => {
      showTab("chat");
      chat.prefill(text);
    },
  }));
  chat.setClient(client);
  tasks.setClient(client);
  if (card.securityRequirements?.length && !connection.secrets().length) {
    status.append(" ", h("span", { class: "warn" }, "— this agent asks for credentials: open “Credentials”."));
  }
}

showTab("chat");
void connect();
