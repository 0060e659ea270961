package main

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/chairside/chairside/seal"
)

// The ways to run Chairside as a service (deploy/, docs/operations.md)
// must agree with what the binary expects: the variables they set are its
// settings, the data and the keys sit apart as env prod demands, and the
// health checks ask addresses the binary answers.

// settingEnvs are the variables the binary reads its settings from, and
// the secrets it reads from the environment only.
func settingEnvs() []string {
	out := []string{"CHAIRSIDE_KEYS", "CHAIRSIDE_TWILIO_AUTH_TOKEN", "CHAIRSIDE_SMTP_PASSWORD", "CHAIRSIDE_OPENDENTAL_DEVELOPER_KEY"}
	for _, s := range (&Config{}).settings() {
		out = append(out, s.Env)
	}
	return out
}

// readDeploy reads a file of deploy/.
func readDeploy(t *testing.T, name string) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "..", "deploy", name))
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// TestServiceUnit: deploy/chairside.service runs `chairside serve` as its
// own user, with the database under the state directory systemd makes and
// the key file in another directory, read-only to the service, which the
// prod checks accept; every variable it sets is a setting; and
// systemd-analyze verify finds nothing to say where systemd is present.
func TestServiceUnit(t *testing.T) {
	data := readDeploy(t, "chairside.service")
	unit := map[string][]string{}
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if k, v, ok := strings.Cut(line, "="); ok && !strings.HasPrefix(line, "#") {
			unit[k] = append(unit[k], v)
		}
	}
	env := map[string]string{}
	for _, e := range unit["Environment"] {
		k, v, _ := strings.Cut(e, "=")
		if !slices.Contains(settingEnvs(), k) {
			t.Errorf("the unit sets %s, which is no setting of the binary", k)
		}
		env[k] = v
	}
	if u := unit["User"]; len(u) != 1 || u[0] == "root" || u[0] == "" {
		t.Errorf("User %v: the service needs a user of its own", u)
	}
	if got := unit["ExecStart"]; len(got) != 1 || got[0] != "/usr/local/bin/chairside serve" {
		t.Errorf("ExecStart %v", got)
	}
	db, keyFile := env["CHAIRSIDE_DB"], env["CHAIRSIDE_KEY_FILE"]
	if filepath.Dir(db) != "/var/lib/"+strings.Join(unit["StateDirectory"], "") {
		t.Errorf("the database %s is not in the state directory %v", db, unit["StateDirectory"])
	}
	if !slices.Contains(unit["ReadOnlyPaths"], filepath.Dir(keyFile)) {
		t.Errorf("the key file's directory %s is not read-only to the service: %v", filepath.Dir(keyFile), unit["ReadOnlyPaths"])
	}
	if env["CHAIRSIDE_ENV"] != "prod" {
		t.Errorf("CHAIRSIDE_ENV %q", env["CHAIRSIDE_ENV"])
	}
	if p := keyFileProblems(&Config{DB: db, KeyFile: keyFile}); len(p) > 0 {
		t.Errorf("env prod refuses the unit's key file: %v", p)
	}

	tool, err := exec.LookPath("systemd-analyze")
	if err != nil {
		t.Log("systemd-analyze is not on this machine: the unit is checked above only")
		return
	}
	// verify checks that ExecStart's binary exists: point it at this one.
	dir := t.TempDir()
	unitFile := filepath.Join(dir, "chairside.service")
	exe, _ := os.Executable()
	text := regexp.MustCompile(`(?m)^ExecStart=.*$`).ReplaceAllString(string(data), "ExecStart="+exe+" serve")
	if err := os.WriteFile(unitFile, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(tool, "verify", "--man=no", unitFile).CombinedOutput()
	if err != nil || len(bytes.TrimSpace(out)) > 0 {
		t.Errorf("systemd-analyze verify: %v\n%s", err, out)
	}
}

// TestContainerRecipe: deploy/Dockerfile runs the binary it builds as a
// non-root user, with the database and the key file on two volumes of
// their own (owned by that user), every variable a setting, and a health
// check the binary's own probe makes of /readyz on the port it exposes;
// deploy/compose.yaml runs two servers on one PostgreSQL with the same
// keys and the same check. The probe itself answers as the check needs.
func TestContainerRecipe(t *testing.T) {
	lines := strings.Split(strings.ReplaceAll(string(readDeploy(t, "Dockerfile")), "\\\n", " "), "\n")
	final := map[string][]string{} // the last stage's instructions
	for _, l := range lines {
		l = strings.TrimSpace(l)
		if l == "" || strings.HasPrefix(l, "#") {
			continue
		}
		word, rest, _ := strings.Cut(l, " ")
		if word == "FROM" {
			final = map[string][]string{}
		}
		final[word] = append(final[word], strings.TrimSpace(rest))
	}
	env := map[string]string{}
	for _, e := range strings.Fields(strings.Join(final["ENV"], " ")) {
		k, v, _ := strings.Cut(e, "=")
		if !slices.Contains(settingEnvs(), k) {
			t.Errorf("the image sets %s, which is no setting of the binary", k)
		}
		env[k] = v
	}
	if u := strings.Join(final["USER"], ""); u == "" || strings.HasPrefix(u, "root") || strings.HasPrefix(u, "0") {
		t.Errorf("USER %q: the server must not run as root", u)
	}
	volumes := strings.Join(final["VOLUME"], " ")
	dbDir, keyDir := filepath.Dir(env["CHAIRSIDE_DB"]), filepath.Dir(env["CHAIRSIDE_KEY_FILE"])
	if dbDir == keyDir || !strings.Contains(volumes, `"`+dbDir+`"`) || !strings.Contains(volumes, `"`+keyDir+`"`) {
		t.Errorf("the database (%s) and the keys (%s) must be two volumes: %s", dbDir, keyDir, volumes)
	}
	if p := keyFileProblems(&Config{DB: env["CHAIRSIDE_DB"], KeyFile: env["CHAIRSIDE_KEY_FILE"]}); len(p) > 0 {
		t.Errorf("env prod refuses the image's key file: %v", p)
	}
	copies := strings.Join(final["COPY"], "\n")
	for _, dir := range []string{dbDir, keyDir} {
		if !strings.Contains(copies, "--chown=nonroot:nonroot") || !strings.Contains(copies, " "+dir+"\n") && !strings.HasSuffix(copies, " "+dir) {
			t.Errorf("the volume %s is not made for the server's user: %s", dir, copies)
		}
	}
	_, port, _ := strings.Cut(env["CHAIRSIDE_ADDR"], ":")
	if strings.Join(final["EXPOSE"], " ") != port {
		t.Errorf("EXPOSE %v, the server listens on %s", final["EXPOSE"], env["CHAIRSIDE_ADDR"])
	}
	check := strings.Join(final["HEALTHCHECK"], " ")
	entry := strings.Trim(strings.Join(final["ENTRYPOINT"], ""), `[]"`)
	if !strings.Contains(check, `"`+entry+`", "probe", "http://127.0.0.1:`+port+`/readyz"`) || !strings.Contains(copies, " "+entry) {
		t.Errorf("the health check %q does not probe /readyz with the binary %q", check, entry)
	}

	var compose struct {
		Services map[string]struct {
			Image       string            `yaml:"image"`
			EnvFile     string            `yaml:"env_file"`
			Environment map[string]string `yaml:"environment"`
			DependsOn   any               `yaml:"depends_on"`
			Healthcheck struct {
				Test []string `yaml:"test"`
			} `yaml:"healthcheck"`
		} `yaml:"services"`
	}
	if err := yaml.Unmarshal(readDeploy(t, "compose.yaml"), &compose); err != nil {
		t.Fatal(err)
	}
	servers := 0
	for name, s := range compose.Services {
		if s.Image != "chairside" {
			continue
		}
		servers++
		if deps, _ := s.DependsOn.(map[string]any); s.EnvFile != "chairside.env" || deps["postgres"] == nil {
			t.Errorf("%s: the keys and the database come from chairside.env, after postgres: %+v", name, s)
		}
		if got := strings.Join(s.Healthcheck.Test, " "); got != "CMD "+entry+" probe http://127.0.0.1:"+port+"/readyz" {
			t.Errorf("%s: health check %q", name, got)
		}
		for k := range s.Environment {
			if !slices.Contains(settingEnvs(), k) {
				t.Errorf("%s sets %s, which is no setting of the binary", name, k)
			}
		}
	}
	if servers < 2 {
		t.Errorf("compose.yaml runs %d servers, want several on one database", servers)
	}
	example := string(readDeploy(t, "chairside.env.example"))
	for _, k := range regexp.MustCompile(`(?m)^#? ?(CHAIRSIDE_[A-Z_]+)=`).FindAllStringSubmatch(example, -1) {
		if !slices.Contains(settingEnvs(), k[1]) {
			t.Errorf("chairside.env.example names %s, which is no setting", k[1])
		}
	}

	// The probe passes a 2xx and fails anything else.
	ok := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/readyz" {
			w.WriteHeader(http.StatusServiceUnavailable)
		}
	}))
	defer ok.Close()
	var out bytes.Buffer
	if err := runProbe(context.Background(), []string{ok.URL + "/readyz"}, &out); err != nil {
		t.Errorf("probe of a ready server: %v", err)
	}
	if err := runProbe(context.Background(), []string{ok.URL + "/other"}, &out); err == nil {
		t.Error("probe passed a 503")
	}
	if err := runProbe(context.Background(), []string{"not a url"}, &out); err == nil {
		t.Error("probe took a bad address")
	}
}

// TestKeysNew: `chairside keys new` prints one line that CHAIRSIDE_KEYS
// takes, new each time.
func TestKeysNew(t *testing.T) {
	var a, b bytes.Buffer
	ctx := context.Background()
	if err := runKeys(ctx, []string{"new"}, nil, &a, io.Discard); err != nil {
		t.Fatal(err)
	}
	if err := runKeys(ctx, []string{"new"}, nil, &b, io.Discard); err != nil {
		t.Fatal(err)
	}
	line := strings.TrimSuffix(a.String(), "\n")
	if strings.Contains(line, "\n") || a.String() == b.String() {
		t.Fatalf("keys new printed %q then %q", a.String(), b.String())
	}
	if _, err := seal.FromEnv(line); err != nil {
		t.Fatalf("CHAIRSIDE_KEYS refuses what keys new printed: %v", err)
	}
	if err := runKeys(ctx, []string{"spin"}, nil, &a, io.Discard); err == nil {
		t.Error("keys took a word it does not know")
	}
}
