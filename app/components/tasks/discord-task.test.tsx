import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { TaskConfigFields } from "./task-config-fields";
import { TaskInstructions } from "./task-instructions";

/** The Discord tasks' form fields and instructions, as the server renders them. */

describe("Discord tasks as the server renders them", () => {
  it("asks the team for the server, the role and the invite, with the re-check's own words", () => {
    const html = renderToStaticMarkup(
      <TaskConfigFields
        type="discord_role"
        values={{ "config.guildId": "900000000000000001", "config.recheckBeforeRewards": "on" }}
        errors={{ "config.roleId": "Enter the role's id" }}
        networks={[]}
      />,
    );
    for (const name of ["guildName", "guildId", "inviteUrl", "roleName", "roleId", "recheckBeforeRewards"]) expect(html).toContain(`name="config.${name}"`);
    expect(html).toMatch(/name="config.guildId"[^>]*value="900000000000000001"/);
    expect(html).toContain("Enter the role&#x27;s id");
    expect(html).toContain("a member who lost the role (or left the server) loses this task");
    expect(renderToStaticMarkup(<TaskConfigFields type="discord_join" values={{}} errors={{}} networks={[]} />)).not.toContain('name="config.roleId"');
  });

  it("tells the member what to do, with the invite opening in a new tab", () => {
    const join = renderToStaticMarkup(
      <TaskInstructions brief={{ type: "discord_join", guildName: "Lumen", inviteUrl: "https://discord.gg/lumen" }} signedIn />,
    );
    expect(join).toContain("Join <strong");
    expect(join).toMatch(/<a [^>]*href="https:\/\/discord.gg\/lumen"[^>]*target="_blank"[^>]*rel="noopener noreferrer"/);
    expect(join).toContain("(opens in a new tab)");
    const role = renderToStaticMarkup(
      <TaskInstructions brief={{ type: "discord_role", guildName: "Lumen", roleName: "Holder", inviteUrl: "https://discord.gg/lumen" }} signedIn={false} />,
    );
    expect(role).toContain("Holder</strong> role in <strong");
  });
});
