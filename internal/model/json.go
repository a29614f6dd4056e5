package model

// The models as gopari model --json writes them and the HTML page reads
// them: one type for both (the README lists its fields).

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
)

// JSON is one model in gopari model --json.
type JSON struct {
	File        string   `json:"file"`
	Line        int      `json:"line"`
	EndLine     int      `json:"end_line"`
	Kind        string   `json:"kind"`
	Name        string   `json:"name"`
	SubName     string   `json:"sub_name,omitempty"`
	Metric      string   `json:"metric"`
	Stat        string   `json:"stat"`
	Param       string   `json:"param,omitempty"`
	Unit        string   `json:"unit"`
	I           float64  `json:"i"`
	IText       string   `json:"i_text"`
	J           int      `json:"j"`
	C0          float64  `json:"c0"`
	C1          float64  `json:"c1"`
	Model       string   `json:"model"`
	Class       string   `json:"class"`
	AdjR2       float64  `json:"adj_r2"`
	SMAPE       float64  `json:"smape"`
	CVSMAPE     float64  `json:"cv_smape"`
	Noise       *float64 `json:"noise"`
	WithinNoise string   `json:"within_noise,omitempty"`
	Verdict     string   `json:"verdict"`
	VerdictText string   `json:"verdict_text"`
	PredictT    int      `json:"predict_t"`
	Predicted   float64  `json:"predicted"`
	Growth      float64  `json:"growth"`
	Points      []Fitted `json:"points"`
	// A model in the thread count and a second parameter: the parameters
	// ("t" and the other), every term, and the points with both
	// coordinates. i, j are then the thread count's own hypothesis and c1
	// the first term's coefficient.
	Params   []string      `json:"params,omitempty"`
	Terms    []JSONTerm    `json:"terms,omitempty"`
	PointsXY []MultiFitted `json:"points_xy,omitempty"`
}

// JSONTerm is one term of a model in two parameters.
type JSONTerm struct {
	Coef    float64      `json:"coefficient"`
	Factors []JSONFactor `json:"factors"`
}

// JSONFactor is one parameter's factor of a term: param^i · log2(param)^j.
type JSONFactor struct {
	Param string  `json:"param"`
	I     float64 `json:"i"`
	IText string  `json:"i_text"`
	J     int     `json:"j"`
}

// WriteJSON writes models as gopari model --json prints them.
func WriteJSON(w io.Writer, models []JSON) error {
	if models == nil {
		models = []JSON{}
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", " ")
	return enc.Encode(models)
}

// ReadJSON reads the output of gopari model --json.
func ReadJSON(path string) ([]JSON, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var ms []JSON
	if err := json.Unmarshal(b, &ms); err != nil {
		var se *json.SyntaxError
		var te *json.UnmarshalTypeError
		switch {
		case errors.As(err, &se):
			return nil, fmt.Errorf("%s: offset %d: not gopari model --json output: %v", path, max(0, se.Offset-1), err)
		case errors.As(err, &te):
			return nil, fmt.Errorf("%s: offset %d: not gopari model --json output: %v", path, te.Offset, err)
		}
		return nil, fmt.Errorf("%s: not gopari model --json output: %v", path, err)
	}
	for i, m := range ms {
		if m.Metric == "" || (len(m.Points) == 0 && len(m.PointsXY) == 0) {
			return nil, fmt.Errorf("%s: model %d has no metric or no points: not gopari model --json output", path, i+1)
		}
	}
	return ms, nil
}

// At evaluates the model at t threads (and, for a model in two
// parameters, the second at p).
func (m *JSON) At(t, p float64) float64 {
	if len(m.Terms) == 0 {
		return m.C0 + m.C1*powLog(t, m.I, m.J)
	}
	v := m.C0
	for _, term := range m.Terms {
		f := term.Coef
		for _, x := range term.Factors {
			arg := t
			if x.Param != "t" {
				arg = p
			}
			f *= powLog(arg, x.I, x.J)
		}
		v += f
	}
	return v
}

// powLog is x^i · log2(x)^j.
func powLog(x, i float64, j int) float64 {
	return math.Pow(x, i) * math.Pow(math.Log2(x), float64(j))
}
