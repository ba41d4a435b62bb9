# The class hub's JupyterHub configuration. `jaxcourse hub` copies it into <hub-dir>/state (root's
# only) beside hub.json (the roster, ports and paths) at every start; settings of your own go in
# extra_config.py there. The database, cookie secret and proxy pid file stay in that folder too.
import json
from pathlib import Path

here = Path(__file__).parent
s = json.loads((here / "hub.json").read_text())
bin_ = s["bin"]
path = f"{bin_}:/usr/local/bin:/usr/bin:/bin"

c = get_config()  # noqa: F821
c.JupyterHub.bind_url = f"{'https' if s['ssl_cert'] else 'http'}://{s['ip']}:{s['port']}/"
if s["ssl_cert"]:
    c.JupyterHub.ssl_cert, c.JupyterHub.ssl_key = s["ssl_cert"], s["ssl_key"]
c.JupyterHub.hub_ip, c.JupyterHub.hub_port = "127.0.0.1", s["hub_port"]
c.JupyterHub.db_url = f"sqlite:///{here / 'jupyterhub.sqlite'}"
c.JupyterHub.cookie_secret_file = str(here / "jupyterhub_cookie_secret")
# The Python configurable-http-proxy: no Node.js on the machine.
c.ConfigurableHTTPProxy.command = [f"{bin_}/configurable-http-proxy"]
c.ConfigurableHTTPProxy.api_url = f"http://127.0.0.1:{s['proxy_api_port']}"
c.ConfigurableHTTPProxy.pid_file = str(here / "jupyterhub-proxy.pid")

# Unix accounts through PAM; only the roster may log in, instructors administer the hub.
c.JupyterHub.authenticator_class = "pam"
c.PAMAuthenticator.open_sessions = False  # pam_systemd/logind sessions are not needed, and fail in containers
c.Authenticator.allowed_users = set(s["students"] + s["tas"] + s["instructors"])
c.Authenticator.admin_users = set(s["instructors"])

# One JupyterLab per person, as their own account, in their own (private) home.
c.JupyterHub.spawner_class = "localprocess"
c.Spawner.cmd = [f"{bin_}/jupyterhub-singleuser"]
c.Spawner.default_url = "/lab"
c.Spawner.args = ["--LabApp.news_url=None", "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate"]
c.Spawner.notebook_dir = "~"
c.Spawner.environment = {"PATH": path, "JUPYTER_CONFIG_PATH": s["student_config"], "JAX_PLATFORMS": "cpu"}

# nbgrader's formgrader as a hub service, run as the grader account in the course folder
# (nbgrader's "formgrader as a JupyterHub service"), open to the instructors' and TAs' group.
c.JupyterHub.services = [{
    "name": s["course_id"],
    "url": f"http://127.0.0.1:{s['formgrader_port']}",
    "command": [f"{bin_}/jupyterhub-singleuser"],
    "user": s["grader"],
    "cwd": s["course_dir"],
    "environment": {"PATH": path, "JAX_PLATFORMS": "cpu", "JUPYTERHUB_DEFAULT_URL": "/lab"},
    "oauth_no_confirm": True,
}]
c.JupyterHub.load_groups = {
    s["formgraders"]: {"users": s["instructors"] + s["tas"]},
    s["students_group"]: {"users": s["students"]},
}
c.JupyterHub.load_roles = [
    {"name": s["formgraders"], "groups": [s["formgraders"]], "scopes": [f"access:services!service={s['course_id']}"]},
]

if (here / "extra_config.py").is_file():
    load_subconfig(str(here / "extra_config.py"))  # noqa: F821
